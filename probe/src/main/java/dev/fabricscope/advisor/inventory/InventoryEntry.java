package dev.fabricscope.advisor.inventory;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.fabricscope.advisor.api.SourceRef;

/**
 * One upstream branch: a {@code raise}, an assertion, a warning that falls back, or a silent disable, read at a pinned
 * commit, and either the advisor rule that models it or why none does.
 *
 * @param id          stable name, {@code framework.file.short-name}
 * @param framework   sglang, vllm, flashinfer or nccl (the project whose file holds the branch)
 * @param repo        {@code owner/name} on GitHub
 * @param commit      the 40-hex commit the file was read at (one of the inventory's {@link Pin}s)
 * @param path        file path in the repository
 * @param line        the line of the statement ({@code raise}, {@code assert}, {@code logger.warning}, the {@code return})
 * @param function    enclosing function, {@code Class.method} where there is one
 * @param condition   the condition under which the branch is taken, as upstream writes it (enclosing {@code if}s joined)
 * @param message     the exact text upstream prints or raises ({@code {expr}} where upstream interpolates), empty if none
 * @param modelledBy  {@code SimpleClassName.MEMBER} of the advisor that models the branch, or null
 * @param notModelled why no rule models it, or null
 * @param appliesWhen for a not-modelled branch: when it could apply to a machine and deployment
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InventoryEntry(String id, String framework, String repo, String commit, String path, int line, String function, Kind kind,
                             String condition, String message, String modelledBy, String notModelled,
                             AppliesWhen appliesWhen) {

    public enum Kind {
        RAISE("raise"), ASSERT("assert"), WARN_FALLBACK("warn-fallback"), SILENT_DISABLE("silent-disable");

        private final String json;

        Kind(String json) {
            this.json = json;
        }

        @JsonValue
        public String json() {
            return json;
        }
    }

    @JsonIgnore
    public boolean modelled() {
        return modelledBy != null;
    }

    /** Where upstream the branch is, as the advisor cites sources. */
    public SourceRef source() {
        return new SourceRef(repo, commit, path, Integer.toString(line));
    }

    /**
     * The {@code why} of the {@code unknown} verdict the advisor shows for a not-modelled branch that could apply:
     * {@code not modelled: <reason>. Upstream <kind> in <function> when <condition>[: "<message>"].}
     */
    public String notModelledWhy() {
        if (notModelled == null) {
            throw new IllegalStateException(id + " is modelled by " + modelledBy);
        }
        String reason = notModelled.endsWith(".") ? notModelled.substring(0, notModelled.length() - 1) : notModelled;
        return "not modelled: " + reason + ". Upstream " + kind.json() + (function == null ? "" : " in " + function)
                + " when " + condition.replace('\n', ' ') + (message.isEmpty() ? "" : ": \"" + message.replace('\n', ' ') + "\"") + ".";
    }
}
