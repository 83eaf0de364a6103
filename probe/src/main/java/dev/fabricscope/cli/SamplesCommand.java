package dev.fabricscope.cli;

import dev.fabricscope.json.Json;
import dev.fabricscope.render.Fit;
import dev.fabricscope.samples.Samples;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabricscope samples}: one bundled sample per entry, its name first, the description wrapped to 120 columns. */
@Command(name = "samples", mixinStandardHelpOptions = true, description = "List the bundled sample machines (name, then description).")
public final class SamplesCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--json", description = "Print [{name, origin, description}] as JSON.")
    boolean json;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        if (json) {
            List<Map<String, String>> list = Samples.list().stream().map(s -> {
                Map<String, String> m = new LinkedHashMap<>();
                m.put("name", s.name());
                int colon = s.description().indexOf(':');
                m.put("origin", colon > 0 ? s.description().substring(0, colon).toLowerCase(java.util.Locale.ROOT) : "unknown");
                m.put("description", colon > 0 ? s.description().substring(colon + 1).strip() : s.description());
                return m;
            }).toList();
            out.print(Json.write(list));
        } else {
            int w = Samples.names().stream().mapToInt(String::length).max().orElse(0) + 2;
            for (Samples.Sample s : Samples.list()) {
                String line = s.name() + " ".repeat(w - s.name().length()) + s.description();
                // Continuations line up under the description.
                out.print(Fit.wrap(line, Fit.WIDTH, w));
            }
        }
        out.flush();
        return ExitCodes.OK;
    }
}
