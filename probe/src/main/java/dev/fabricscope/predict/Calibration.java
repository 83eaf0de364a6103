package dev.fabricscope.predict;

import java.util.ArrayList;
import java.util.List;

/**
 * Fits a backend's latency and bandwidth factors to measured times: weighted least squares on
 * {@code T = a × latency + (1/b) × bytes/bandwidth} with weights 1/T² (relative error, so 8 B counts as much as
 * 256 MiB). Where the backend has several terms (NCCL's algorithm × protocol), each point takes the fastest term
 * under the current factors and the fit repeats until that choice settles.
 */
public final class Calibration {
    private Calibration() {
    }

    /** One measured all-reduce: {@code bytes} in {@code timeUs}. */
    public record Point(long bytes, double timeUs) {
    }

    /** The fitted factors, the points they were fitted to, and the largest relative error left. */
    public record Fit(CostModel.Scale scale, int points, double worstRelativeError) {
    }

    /**
     * @param termsAt the backend's candidate terms at a size
     * @return the fit, or null with fewer than two usable points or no terms
     */
    public static Fit fit(java.util.function.LongFunction<CostModel.Terms> termsAt, List<Point> points) {
        List<Point> usable = points.stream().filter(p -> p.timeUs() > 0 && p.bytes() > 0).toList();
        if (usable.size() < 2) {
            return null;
        }
        List<CostModel.Terms> terms = new ArrayList<>();
        for (Point p : usable) {
            CostModel.Terms t = termsAt.apply(p.bytes());
            if (t.terms().isEmpty()) {
                return null;
            }
            terms.add(t);
        }
        CostModel.Scale s = CostModel.Scale.SPECS;
        for (int round = 0; round < 50; round++) {
            double sLL = 0, sLW = 0, sWW = 0, sLT = 0, sWT = 0;
            for (int i = 0; i < usable.size(); i++) {
                Point p = usable.get(i);
                CostModel.Term t = fastest(terms.get(i), p.bytes(), s);
                double l = t.latencyUs();
                double w = p.bytes() / (1000.0 * t.gbps());
                double wt = 1.0 / (p.timeUs() * p.timeUs());
                sLL += wt * l * l;
                sLW += wt * l * w;
                sWW += wt * w * w;
                sLT += wt * l * p.timeUs();
                sWT += wt * w * p.timeUs();
            }
            double det = sLL * sWW - sLW * sLW;
            if (Math.abs(det) < 1e-30) {
                break;
            }
            double a = (sLT * sWW - sWT * sLW) / det;
            double c = (sLL * sWT - sLW * sLT) / det;
            if (a <= 0 || c <= 0) { // a negative factor means the terms cannot be fitted as latency + bandwidth
                a = Math.max(a, 1e-3);
                c = Math.max(c, 1e-3);
            }
            CostModel.Scale next = new CostModel.Scale(a, 1.0 / c);
            boolean settled = Math.abs(next.latency() - s.latency()) < 1e-9 && Math.abs(next.bandwidth() - s.bandwidth()) < 1e-9;
            s = next;
            if (settled) {
                break;
            }
        }
        double worst = 0;
        for (int i = 0; i < usable.size(); i++) {
            Point p = usable.get(i);
            double pred = fastest(terms.get(i), p.bytes(), s).timeUs(p.bytes(), s);
            worst = Math.max(worst, Math.abs(pred - p.timeUs()) / p.timeUs());
        }
        return new Fit(s, usable.size(), worst);
    }

    private static CostModel.Term fastest(CostModel.Terms t, long bytes, CostModel.Scale s) {
        CostModel.Term best = null;
        for (CostModel.Term x : t.terms()) {
            if (best == null || x.timeUs(bytes, s) < best.timeUs(bytes, s)) {
                best = x;
            }
        }
        return best;
    }
}
