package dev.fabricscope.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.fabricscope.model.MachineSnapshot;

/**
 * One node's report in a cluster folder.
 *
 * @param name     the node's hostname from its snapshot, else the file name without extension
 * @param file     the file it was read from
 * @param snapshot the node's snapshot, or null when the file could not be read
 * @param error    why the file could not be read (one line), or null
 */
public record ClusterNode(String name, String file, @JsonIgnore MachineSnapshot snapshot, String error) {

    @JsonIgnore
    public boolean ok() {
        return snapshot != null;
    }
}
