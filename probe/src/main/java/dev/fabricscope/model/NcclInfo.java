package dev.fabricscope.model;

import java.util.List;

/**
 * The NCCL library the frameworks would load.
 *
 * @param path     the library file found, or missing with the places searched
 * @param version  from {@code ncclGetVersion}, e.g. {@code 2.28.3}
 * @param searched every path that was looked at, in order
 */
public record NcclInfo(Reading<String> path, Reading<String> version, List<String> searched) {
    public NcclInfo {
        searched = searched == null ? List.of() : List.copyOf(searched);
    }
}
