package dev.fabricscope.check.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One driver call a check made, with its arguments and answer.
 *
 * @param call      e.g. {@code cuMulticastGetGranularity}
 * @param arguments the arguments that matter, as text
 * @param code      the CUresult (or ncclResult_t) number
 * @param codeName  its name, e.g. {@code CUDA_ERROR_NOT_SUPPORTED}
 * @param value     what the call returned when it succeeded (e.g. {@code 2097152}), or null
 * @param note      what the step means, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CallStep(String call, String arguments, int code, String codeName, String value, String note) {

    @JsonIgnore
    public boolean ok() {
        return code == 0;
    }

    /** {@code cuMemCreate(size=…) → CUDA_SUCCESS (0) = 0x…}. */
    public String describe() {
        StringBuilder sb = new StringBuilder(call);
        if (arguments != null && !arguments.isEmpty()) {
            sb.append('(').append(arguments).append(')');
        }
        sb.append(" → ").append(codeName).append(" (").append(code).append(')');
        if (value != null) {
            sb.append(" = ").append(value);
        }
        if (note != null) {
            sb.append("  [").append(note).append(']');
        }
        return sb.toString();
    }

    public CallStep withNote(String newNote) {
        return new CallStep(call, arguments, code, codeName, value, newNote);
    }
}
