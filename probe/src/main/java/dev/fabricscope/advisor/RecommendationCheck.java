package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 23 item 5: every recommendation is evaluated by the same rules at the same deployment before it is shown. A
 * recommendation whose flags and environment, applied, give its framework an error verdict the deployment did not
 * already have is withheld: its settings are dropped and the summary says why.
 */
final class RecommendationCheck {

    /** FlashInfer's recommendation names the factory call, not a flag. */
    private static final Pattern FI_CALL = Pattern.compile("create_allreduce_fusion_workspace\\(backend=\"(\\w+)\"\\)");
    static final String FI_KNOB = "create_allreduce_fusion_workspace(backend)";

    /** Re-advises with each recommendation applied. */
    interface Adviser {
        AdviceResult advise(Deployment d) throws AdvisorInputException;
    }

    private RecommendationCheck() {
    }

    static List<Recommendation> vet(AdviceResult before, Deployment d, Adviser adviser) {
        List<Recommendation> out = new ArrayList<>();
        for (Recommendation r : before.recommendations()) {
            out.add(vetOne(r, before, d, adviser));
        }
        return out;
    }

    private static Recommendation vetOne(Recommendation r, AdviceResult before, Deployment d, Adviser adviser) {
        if (r.flags().isEmpty() && r.env().isEmpty() && r.drop().isEmpty() && d.flags().isEmpty() && d.env().isEmpty()) {
            return r;
        }
        Deployment applied = applied(r, d);
        AdviceResult after;
        try {
            after = adviser.advise(applied);
        } catch (AdvisorInputException ex) {
            return r; // a flag the input grammar does not take back (e.g. vLLM's -cc.…): not checkable this way
        }
        for (Verdict v : after.verdicts()) {
            boolean fresh = before.verdicts().stream().noneMatch(b -> b.knob().equals(v.knob()) && java.util.Objects.equals(b.value(), v.value()) && b.outcome() == Outcome.ERROR);
            if (v.framework().equals(r.framework()) && v.outcome() == Outcome.ERROR && fresh) {
                return new Recommendation(r.framework(), List.of(), java.util.Map.of(), r.drop(), "Withheld " + String.join(" ", r.flags())
                        + (r.env().isEmpty() ? "" : " " + r.env()) + ": applied, " + v.knob() + "=" + v.value() + " fails"
                        + (v.message() != null ? " (" + v.message() + ")" : "") + ". Defaults stay.");
            }
        }
        return withBlockersDropped(r, d, applied, after, adviser);
    }

    /**
     * Seventh audit F1: a setting the recommendation makes that, applied, still does not take effect because one of the
     * user's own settings overrides it (SGLang's --enforce-disable-flashinfer-allreduce-fusion over a recommended backend):
     * the user's setting whose removal makes it take effect joins the drops.
     */
    private static Recommendation withBlockersDropped(Recommendation r, Deployment d, Deployment applied, AdviceResult after, Adviser adviser) {
        List<String> recommended = recommendedKnobs(r);
        List<String> candidates = new ArrayList<>();
        for (String user : userKnobs(d)) {
            if (!recommended.contains(user) && r.drop().stream().noneMatch(x -> bare(x).equals(user))) {
                candidates.add(user);
            }
        }
        List<String> extra = new ArrayList<>();
        List<String> why = new ArrayList<>();
        Deployment plan = applied;
        AdviceResult planned = after;
        for (String knob : recommended) {
            Verdict rv = find(planned, r.framework(), knob);
            // only a setting that demonstrably does not take effect (fallback or error); an unknown is not a blocker's work
            // (ninth audit F24: an unmodelled knob of the user's made every ok unknown, and was dropped as the "cause")
            if (rv == null || (rv.outcome() != Outcome.FALLBACK && rv.outcome() != Outcome.ERROR)) {
                continue;
            }
            for (String user : candidates) {
                if (extra.contains(shown(d, user))) {
                    continue;
                }
                Deployment without = without(d, plan, user);
                AdviceResult alt = adviseOrNull(adviser, without);
                Verdict now = alt == null ? null : find(alt, r.framework(), knob);
                if (now != null && now.outcome() == Outcome.OK) {
                    extra.add(shown(d, user));
                    why.add("drop " + shown(d, user) + ": it keeps " + rv.knob() + "=" + rv.value() + " from taking effect"
                            + (rv.message() != null ? " (" + rv.message() + ")" : ""));
                    plan = without;
                    planned = alt;
                    break;
                }
            }
        }
        // eighth audit F15: a setting of the user's own that still fails once the plan is applied, and whose removal clears it
        for (Verdict v : planned.verdicts()) {
            String user = bare(v.knob());
            if (!v.framework().equals(r.framework()) || v.outcome() != Outcome.ERROR || !v.userSet() || !candidates.contains(user)
                    || extra.contains(shown(d, user))) {
                continue;
            }
            Deployment without = without(d, plan, user);
            AdviceResult alt = adviseOrNull(adviser, without);
            if (alt != null && errors(alt, r.framework()) < errors(planned, r.framework())) {
                extra.add(shown(d, user));
                why.add("drop " + shown(d, user) + ": " + v.knob() + "=" + v.value() + " fails" + (v.message() != null ? " (" + v.message() + ")" : ""));
                plan = without;
                planned = alt;
            }
        }
        if (extra.isEmpty()) {
            return r;
        }
        List<String> drop = new ArrayList<>(r.drop());
        drop.addAll(extra);
        return new Recommendation(r.framework(), r.flags(), r.env(), drop, r.summary() + " Also " + String.join("; ", why) + ".");
    }

    /** {@code plan} without the user's setting {@code user} (an environment variable where {@code d} exports it, else a flag). */
    private static Deployment without(Deployment d, Deployment plan, String user) {
        return d.env().containsKey(user) ? plan.withEnv(user, null) : plan.withFlag(user, null);
    }

    /** The user's setting as the drop list shows it: {@code NAME} or {@code --flag}. */
    private static String shown(Deployment d, String user) {
        return d.env().containsKey(user) ? user : "--" + user;
    }

    /** The advice for {@code d}, or null where the input grammar does not take it back. */
    private static AdviceResult adviseOrNull(Adviser adviser, Deployment d) {
        try {
            return adviser.advise(d);
        } catch (AdvisorInputException ex) {
            return null;
        }
    }

    /** The knob names (no leading dashes) the recommendation sets. */
    private static List<String> recommendedKnobs(Recommendation r) {
        List<String> out = new ArrayList<>();
        for (String flag : r.flags()) {
            out.add(flagName(flag));
        }
        out.addAll(r.env().keySet());
        return out;
    }

    /** A recommended flag's knob: FlashInfer's factory call, else the flag without dashes and value. */
    private static String flagName(String flag) {
        if (FI_CALL.matcher(flag).matches()) {
            return FI_KNOB;
        }
        String f = bare(flag);
        int eq = f.indexOf('=');
        return eq < 0 ? f : f.substring(0, eq);
    }

    private static List<String> userKnobs(Deployment d) {
        List<String> out = new ArrayList<>(d.flags().keySet());
        out.addAll(d.env().keySet());
        return out;
    }

    private static String bare(String knob) {
        return knob.replaceFirst("^-+", "");
    }

    private static long errors(AdviceResult a, String framework) {
        return a.verdicts().stream().filter(v -> v.framework().equals(framework) && v.outcome() == Outcome.ERROR).count();
    }

    private static Verdict find(AdviceResult a, String framework, String knob) {
        return a.verdicts().stream().filter(v -> v.framework().equals(framework) && bare(v.knob()).equals(knob)).findFirst().orElse(null);
    }

    /** The deployment with the recommendation's flags (as typed) and environment applied. */
    static Deployment applied(Recommendation r, Deployment d) {
        Deployment out = d;
        for (String knob : r.drop()) {
            out = out.env().containsKey(knob) ? out.withEnv(knob, null) : out.withFlag(bare(knob), null);
        }
        for (String flag : r.flags()) {
            Matcher fi = FI_CALL.matcher(flag);
            if (fi.matches()) {
                out = out.withFlag(FI_KNOB, fi.group(1));
                continue;
            }
            String f = bare(flag);
            int eq = f.indexOf('=');
            out = out.withFlag(flagName(flag), eq < 0 ? "true" : f.substring(eq + 1));
        }
        for (var e : r.env().entrySet()) {
            out = out.withEnv(e.getKey(), e.getValue());
        }
        return out;
    }
}
