package dev.fabricscope.advisor.rule;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A framework's recommendation being assembled: the flags and environment to set, the notes that explain them, and
 * the what-if with them applied ({@link #base}), which each step reads and extends.
 */
public final class RecommendationPlan {

    public final List<String> flags = new ArrayList<>();
    public final Map<String, String> env = new LinkedHashMap<>();
    public final List<String> notes = new ArrayList<>();
    /** The user's settings to remove ({@link Recommendation#drop}). */
    public final List<String> drop = new ArrayList<>();
    public Eval base;

    public RecommendationPlan(Eval base) {
        this.base = base;
    }

    /** Puts "drop KNOB=VALUE (fails at start-up)" first for each knob the user set that fails and that the plan does not handle. */
    public void dropFailing(List<Verdict> asGiven, Predicate<Verdict> handled) {
        for (Verdict v : asGiven) {
            if (v.userSet() && v.outcome() == Outcome.ERROR && !handled.test(v)) {
                notes.add(0, "drop " + v.knob() + "=" + v.value() + " (fails at start-up)");
                drop.add(v.knob());
            }
        }
    }

    /** Removes the user's {@code knob} (set to {@code value}) from the plan, with {@code why} in the notes. */
    public void drop(String knob, String value, String why) {
        notes.add("drop " + knob + (value == null ? "" : "=" + value) + " (" + why + ")");
        drop.add(knob);
    }

    /** The recommendation; what still fails with the plan applied ({@code withPlan}) is a deployment setting to change. */
    public Recommendation finish(String framework, List<Verdict> withPlan) {
        List<String> left = new ArrayList<>();
        for (Verdict v : withPlan) {
            // a knob the plan drops is not a setting left to change (eighth audit F13)
            boolean dropped = drop.stream().anyMatch(d -> d.replaceFirst("^-+", "").equals(v.knob().replaceFirst("^-+", "")));
            if (v.outcome() == Outcome.ERROR && !dropped) {
                left.add(v.knob() + "=" + v.value() + " still fails" + (v.message() != null ? " (" + v.message() + ")" : ""));
            }
        }
        String summary = (notes.isEmpty() ? "Defaults are fine." : String.join("; ", notes) + ".")
                + (left.isEmpty() ? "" : " Deployment settings to change: " + String.join("; ", left) + ".");
        return new Recommendation(framework, flags, env, drop, summary);
    }
}
