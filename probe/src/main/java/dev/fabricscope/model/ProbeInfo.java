package dev.fabricscope.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Where a snapshot came from.
 *
 * @param toolVersion  Fabricscope version that made it
 * @param probedAt     ISO-8601 instant of the probe (UTC)
 * @param commandLine  the command line that made it (argv, program first)
 * @param durationMs   wall time of the probe, or null
 * @param origin       live, captured (a real machine, saved), synthetic (built from public specs) or replayed
 *                     (the probe run again over a recorded trace of a real machine's native answers)
 * @param description  for samples: what machine this is, and for synthetic ones the specs it follows
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProbeInfo(String toolVersion, String probedAt, List<String> commandLine, Long durationMs,
                        Origin origin, String description) {

    public enum Origin { LIVE, CAPTURED, SYNTHETIC, REPLAYED }

    public ProbeInfo {
        commandLine = commandLine == null ? List.of() : List.copyOf(commandLine);
    }
}
