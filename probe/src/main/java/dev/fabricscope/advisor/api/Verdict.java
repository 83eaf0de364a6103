package dev.fabricscope.advisor.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What one framework does with one knob on this machine and deployment.
 *
 * @param framework  sglang, vllm, flashinfer or nccl
 * @param knob       as the user types it: {@code --flashinfer-allreduce-fusion-backend}, {@code VLLM_FLASHINFER_ALLREDUCE_BACKEND}, …
 * @param value      the value evaluated (the user's, or the default)
 * @param userSet    true when the user gave the value, false for the default
 * @param outcome    ok, fallback or error
 * @param resolved   the backend actually used, or null
 * @param errorClass e.g. {@code ValueError} for errors, null otherwise
 * @param message    the framework's own words, verbatim (null when it prints nothing)
 * @param when       when it happens: argument parsing, model init, first batch, …
 * @param why        plain words tied to this machine's facts
 * @param fix        concrete flags or env for this machine, or null when nothing needs fixing
 * @param source     the upstream rule
 * @param version    the framework version whose rules were applied
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Verdict(String framework, String knob, String value, boolean userSet, Outcome outcome, String resolved,
                      String errorClass, String message, String when, String why, String fix, SourceRef source,
                      String version) {
}
