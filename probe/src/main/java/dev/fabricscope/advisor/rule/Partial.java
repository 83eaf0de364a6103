package dev.fabricscope.advisor.rule;

import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;

/**
 * A rule's result that another framework's verdict builds on (FlashInfer's workspace under SGLang or vLLM, NCCL's
 * NVLS under SGLang's environment handling).
 *
 * @param message the framework's own words (exception text for errors), or null
 * @param why     plain words tied to the machine, without the assumption notes (the enclosing verdict adds them)
 */
public record Partial(Outcome outcome, String resolved, String errorClass, String message, String when, String why,
               SourceRef source) {

    public static Partial ok(String resolved, String when, String why, SourceRef source) {
        return new Partial(Outcome.OK, resolved, null, null, when, why, source);
    }

    public boolean failed() {
        return outcome != Outcome.OK;
    }
}
