package dev.fabricscope.advisor.rule;


import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import java.util.List;
import java.util.function.Supplier;

/** Builds one {@link Verdict}; {@link #build()} adds the assumptions behind the facts it read to {@code why}. */
public final class VerdictBuilder {

    private final Supplier<FactsRead> closeScope;
    private final KnobSpec knob;
    private final String version;
    private String value;
    private final boolean userSet;
    private Outcome outcome = Outcome.OK;
    private String resolved;
    private String errorClass;
    private String message;
    private String when;
    private String why;
    private String fix;
    private SourceRef source;
    private boolean built;
    private boolean bare;

    /**
     * @param userValue  the user's value of {@code knob}, or null for its default
     * @param closeScope ends the scope of facts read for this verdict, returning the notes to add to {@code why} and
     *                   the not-modelled grounds that make an {@code ok} {@code unknown}
     */
    VerdictBuilder(KnobSpec knob, String version, String userValue, Supplier<FactsRead> closeScope) {
        this.closeScope = closeScope;
        this.knob = knob;
        this.version = version;
        String v = userValue;
        this.userSet = v != null;
        this.value = v != null ? v : knob.defaultValue();
    }

    public boolean userSet() {
        return userSet;
    }

    public String value() {
        return value;
    }

    /** Overrides the shown value (e.g. a default that depends on the version or optimisation level). */
    public VerdictBuilder value(String v) {
        this.value = v;
        return this;
    }

    /**
     * Builds without the assumption notes and the not-modelled downgrade: for a verdict another framework's verdict
     * quotes (the facts read still count for the enclosing verdict, which adds both).
     */
    public VerdictBuilder bare() {
        bare = true;
        return this;
    }

    public VerdictBuilder ok() {
        outcome = Outcome.OK;
        errorClass = null;
        return this;
    }

    public VerdictBuilder fallback() {
        outcome = Outcome.FALLBACK;
        return this;
    }

    public VerdictBuilder error(String errorClass) {
        outcome = Outcome.ERROR;
        this.errorClass = errorClass;
        return this;
    }

    public VerdictBuilder outcome(Outcome o) {
        outcome = o;
        return this;
    }

    public VerdictBuilder errorClass(String c) {
        errorClass = c;
        return this;
    }

    public VerdictBuilder resolved(String r) {
        resolved = r;
        return this;
    }

    public VerdictBuilder message(String m) {
        message = m;
        return this;
    }

    public VerdictBuilder when(String w) {
        when = w;
        return this;
    }

    public VerdictBuilder why(String w) {
        why = w;
        return this;
    }

    public VerdictBuilder fix(String f) {
        fix = f;
        return this;
    }

    public VerdictBuilder source(SourceRef s) {
        source = s;
        return this;
    }

    /** Copies outcome, resolved, error class, message and when from another verdict. */
    public VerdictBuilder like(Verdict v) {
        outcome = v.outcome();
        resolved = v.resolved();
        errorClass = v.errorClass();
        message = v.message();
        when = v.when();
        return this;
    }

    /** The framework's own words, verbatim, with placeholders filled in. */
    public VerdictBuilder message(UpstreamMessage m, Object... args) {
        return message(m.format(args));
    }

    /** Takes outcome, resolved, error class, message, when, why and source from a shared rule result. */
    public VerdictBuilder apply(Partial p) {
        outcome = p.outcome();
        resolved = p.resolved();
        errorClass = p.errorClass();
        message = p.message();
        when = p.when();
        why = p.why();
        source = p.source();
        return this;
    }

    public Verdict build() {
        if (built) {
            throw new IllegalStateException("verdict for " + knob.display() + " built twice");
        }
        built = true;
        if (when == null || source == null || why == null) {
            throw new IllegalStateException("verdict for " + knob.display() + " lacks when, why or source");
        }
        FactsRead read = closeScope.get();
        List<String> notes = bare ? List.of() : read.notes();
        String w = why == null ? "" : why.strip();
        if (!w.isEmpty()) {
            // a sentence starts upper-case, a name does not change: "ag_rs (default) …" stays as the framework spells it
            String first = w.split("[ ,:;(]", 2)[0];
            if (first.chars().allMatch(Character::isLetter)) {
                w = Character.toUpperCase(w.charAt(0)) + w.substring(1);
            }
            w = w.replace(". the ", ". The ").replace(". the GPUs", ". The GPUs");
        }
        if (!notes.isEmpty()) {
            w = (w.isEmpty() ? "" : w + (w.endsWith(".") ? " " : ". ")) + String.join(" ", notes);
        }
        Outcome o = outcome;
        if (o == Outcome.OK && !bare && !read.notModelled().isEmpty()) {
            o = Outcome.UNKNOWN;
            w = w + " Not modelled: " + read.notModelled().get(0);
        }
        return new Verdict(knob.framework(), knob.display(), value, userSet, o, resolved, errorClass, message,
                when, w.isEmpty() ? null : w, fix, source, version);
    }
}
