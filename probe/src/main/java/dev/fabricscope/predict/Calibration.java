package dev.fabricscope.predict;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Fits a backend's latency and bandwidth factors to measured times: weighted least squares on
 * {@code T = a × latency + (1/b) × bytes/bandwidth} with weights 1/T² (relative error, so 8 B counts as much as
 * 256 MiB). Where the backend has several terms (NCCL's algorithm × protocol), each measured size is assigned to the
 * term NCCL's tuner picks there from its own constants ({@code ncclTopoGetAlgoTime}, the fastest at specs), and every
 * term that holds at least {@link #MIN_TERM_POINTS} sizes gets its own pair of factors; a term with fewer keeps the
 * backend-wide pair (one fit over every size, each taking the fastest term under the current factors, repeated until
 * that choice settles). A prediction keeps the tuner's choice of term and applies that term's factors.
 */
public final class Calibration {
    private Calibration() {
    }

    /**
     * A term needs this many measured sizes of its own for its own two factors (two parameters, two spare points); a
     * size measured more than once counts once.
     */
    public static final int MIN_TERM_POINTS = 4;

    /** One measured all-reduce: {@code bytes} in {@code timeUs}. */
    public record Point(long bytes, double timeUs) {
    }

    /**
     * One term's own factors.
     *
     * @param scale     the fitted factors
     * @param points    the measured points the tuner assigns to the term (a size measured twice: two)
     * @param fromBytes the smallest of them
     * @param toBytes   the largest
     */
    public record TermFit(Scale scale, int points, long fromBytes, long toBytes) {
    }

    /**
     * The fitted factors, the points they were fitted to, and the largest relative error left.
     *
     * @param scale  the backend-wide factors (every term)
     * @param terms  the factors of each term that had {@link #MIN_TERM_POINTS} sizes of its own, by label
     * @param points the measured sizes used
     * @param worstRelativeError the largest |predicted − measured| / measured over them, as {@link #estimate} predicts
     */
    public record Fit(Scale scale, Map<String, TermFit> terms, int points, double worstRelativeError) {
        public Fit {
            terms = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(terms)); // smallest sizes' term first
        }

        /** A fit of the backend-wide factors alone (no term of its own). */
        public Fit(Scale scale, int points, double worstRelativeError) {
            this(scale, Map.of(), points, worstRelativeError);
        }

        /** The factors applied to {@code term}: its own where it had enough sizes, else the backend-wide ones. */
        public Scale scaleOf(String term) {
            TermFit t = terms.get(term);
            return t == null ? scale : t.scale();
        }

        /**
         * The time at {@code bytes}: with terms of their own, the term NCCL's tuner picks from specs at that term's
         * factors; else the fastest term under the backend-wide factors.
         */
        public Estimate estimate(Terms t, long bytes) {
            if (terms.isEmpty()) {
                return t.best(bytes, scale);
            }
            Term chosen = fastest(t, bytes, Scale.SPECS);
            return chosen == null ? null : new Estimate(chosen.timeUs(bytes, scaleOf(chosen.label())), chosen.label());
        }
    }

    /**
     * @param termsAt the backend's candidate terms at a size
     * @return the fit, or null with fewer than two usable points or no terms
     */
    public static Fit fit(LongFunction<Terms> termsAt, List<Point> points) {
        List<Point> usable = points.stream().filter(p -> p.timeUs() > 0 && p.bytes() > 0)
                .sorted(java.util.Comparator.comparingLong(Point::bytes)).toList();
        if (usable.size() < 2) {
            return null;
        }
        List<Terms> terms = new ArrayList<>();
        for (Point p : usable) {
            Terms t = termsAt.apply(p.bytes());
            if (t.terms().isEmpty()) {
                return null;
            }
            terms.add(t);
        }
        Scale s = backendWide(usable, terms);
        Map<String, List<Integer>> byTerm = new LinkedHashMap<>();
        for (int i = 0; i < usable.size(); i++) {
            byTerm.computeIfAbsent(fastest(terms.get(i), usable.get(i).bytes(), Scale.SPECS).label(),
                    x -> new ArrayList<>()).add(i);
        }
        Map<String, TermFit> own = new LinkedHashMap<>();
        if (byTerm.size() > 1) {
            for (Map.Entry<String, List<Integer>> e : byTerm.entrySet()) {
                List<Integer> idx = e.getValue();
                if (idx.stream().map(i -> usable.get(i).bytes()).distinct().count() < MIN_TERM_POINTS) {
                    continue; // sizes, not points: a size measured twice (in place and out of place) is one size
                }
                List<double[]> rows = new ArrayList<>();
                for (int i : idx) {
                    Point p = usable.get(i);
                    Term t = terms.get(i).terms().stream().filter(x -> x.label().equals(e.getKey())).findFirst().orElseThrow();
                    rows.add(new double[] {t.latencyUs(), p.bytes() / (1000.0 * t.gbps()), p.timeUs()});
                }
                Scale ts = solve(rows);
                if (ts != null) {
                    own.put(e.getKey(), new TermFit(ts, idx.size(), usable.get(idx.get(0)).bytes(),
                            usable.get(idx.get(idx.size() - 1)).bytes()));
                }
            }
        }
        Fit fit = new Fit(s, own, usable.size(), 0);
        double worst = 0;
        for (int i = 0; i < usable.size(); i++) {
            Point p = usable.get(i);
            double pred = fit.estimate(terms.get(i), p.bytes()).us();
            worst = Math.max(worst, Math.abs(pred - p.timeUs()) / p.timeUs());
        }
        return new Fit(s, own, usable.size(), worst);
    }

    /** The one pair of factors for every term, each point taking the fastest term under the current factors. */
    private static Scale backendWide(List<Point> usable, List<Terms> terms) {
        Scale s = Scale.SPECS;
        for (int round = 0; round < 50; round++) {
            List<double[]> rows = new ArrayList<>();
            for (int i = 0; i < usable.size(); i++) {
                Point p = usable.get(i);
                Term t = fastest(terms.get(i), p.bytes(), s);
                rows.add(new double[] {t.latencyUs(), p.bytes() / (1000.0 * t.gbps()), p.timeUs()});
            }
            Scale next = solve(rows);
            if (next == null) {
                next = clamped(rows);
            }
            if (next == null) {
                break;
            }
            boolean settled = Math.abs(next.latency() - s.latency()) < 1e-9 && Math.abs(next.bandwidth() - s.bandwidth()) < 1e-9;
            s = next;
            if (settled) {
                break;
            }
        }
        return s;
    }

    /**
     * Weighted least squares of {@code T = a·L + c·W} over rows {L, W, T}, weights 1/T²; the factors {@code (a, 1/c)},
     * or null when the rows cannot tell latency from bandwidth or a factor comes out not positive.
     */
    private static Scale solve(List<double[]> rows) {
        double[] ac = normal(rows);
        return ac == null || ac[0] <= 0 || ac[1] <= 0 ? null : new Scale(ac[0], 1.0 / ac[1]);
    }

    /** As {@link #solve}, a factor that comes out not positive held at 1e-3 (the backend-wide fit's old behaviour). */
    private static Scale clamped(List<double[]> rows) {
        double[] ac = normal(rows);
        return ac == null ? null : new Scale(Math.max(ac[0], 1e-3), 1.0 / Math.max(ac[1], 1e-3));
    }

    private static double[] normal(List<double[]> rows) {
        double sLL = 0, sLW = 0, sWW = 0, sLT = 0, sWT = 0;
        for (double[] r : rows) {
            double l = r[0], w = r[1], t = r[2];
            double wt = 1.0 / (t * t);
            sLL += wt * l * l;
            sLW += wt * l * w;
            sWW += wt * w * w;
            sLT += wt * l * t;
            sWT += wt * w * t;
        }
        double det = sLL * sWW - sLW * sLW;
        if (Math.abs(det) < 1e-30 * Math.max(1, sLL * sWW)) {
            return null;
        }
        return new double[] {(sLT * sWW - sWT * sLW) / det, (sLL * sWT - sLW * sLT) / det};
    }

    static Term fastest(Terms t, long bytes, Scale s) {
        Term best = null;
        for (Term x : t.terms()) {
            if (best == null || x.timeUs(bytes, s) < best.timeUs(bytes, s)) {
                best = x;
            }
        }
        return best;
    }
}
