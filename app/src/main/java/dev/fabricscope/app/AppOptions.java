package dev.fabricscope.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command-line options of the desktop app.
 *
 * <pre>
 *   --sample NAME        open a bundled sample instead of probing
 *   --snapshot FILE      open a report or snapshot file instead of probing
 *   --cluster DIR        open a folder of node reports (a cluster) instead of probing
 *   --compare A,B        compare two reports side by side instead of probing
 *   --no-probe           start without probing this machine
 *   --theme light|dark   override the remembered theme
 *   --size WxH           window size (overrides the remembered one)
 * </pre>
 * {@code --sample a,b,c} opens the first; all of them are in {@link #samples()} (the screenshot tour takes each).
 */
public record AppOptions(String sample, Path snapshot, Path cluster, List<Path> compare, boolean noProbe, String theme, double[] size,
                         List<String> samples) {

    public static AppOptions parse(List<String> args) {
        String sample = null;
        Path snapshot = null;
        Path cluster = null;
        List<Path> compare = null;
        boolean noProbe = false;
        String theme = null;
        double[] size = null;
        List<String> shots = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            boolean hasNext = i + 1 < args.size() && !args.get(i + 1).startsWith("--");
            switch (name) {
                case "--sample" -> {
                    sample = v != null ? v : hasNext ? args.get(++i) : null;
                    if (sample != null) {
                        shots.addAll(List.of(sample.split(",")));
                        sample = shots.get(0);
                    }
                }
                case "--snapshot" -> snapshot = Path.of(v != null ? v : args.get(++i));
                case "--cluster" -> cluster = Path.of(v != null ? v : args.get(++i));
                case "--compare" -> {
                    String[] ab = (v != null ? v : args.get(++i)).split(",");
                    compare = ab.length == 2 ? List.of(Path.of(ab[0]), Path.of(ab[1])) : null;
                    if (compare == null) {
                        System.err.println("fabricscope-app: --compare takes two files: A.json,B.json");
                    }
                }
                case "--no-probe" -> noProbe = true;
                case "--theme" -> theme = v != null ? v : args.get(++i);
                case "--size" -> {
                    String[] wh = (v != null ? v : args.get(++i)).split("x");
                    size = new double[] {Double.parseDouble(wh[0]), Double.parseDouble(wh[1])};
                }
                default -> System.err.println("fabricscope-app: ignoring unknown option " + a);
            }
        }
        return new AppOptions(sample, snapshot, cluster, compare, noProbe, theme, size, List.copyOf(shots));
    }
}
