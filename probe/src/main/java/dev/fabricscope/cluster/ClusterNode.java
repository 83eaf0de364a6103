package dev.fabricscope.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import java.nio.file.Path;

/**
 * One node's report in a cluster folder. The cluster view needs only its {@link NodeSummary}; the full snapshot is
 * read from the file when asked for ({@link #readSnapshot}), unless the node was made from one in memory.
 *
 * @param name    the node's hostname from its snapshot, else the file name without extension
 * @param file    the file it was read from
 * @param summary what the cluster view compares, or null when the file could not be read
 * @param error   why the file could not be read (one line), or null
 * @param held    the full snapshot when the node was made from one in memory, else null
 */
public record ClusterNode(String name, String file, @JsonIgnore NodeSummary summary, String error,
                          @JsonIgnore MachineSnapshot held) {

    /** A node from a snapshot in memory (or an unreadable one, with {@code snapshot} null and its error). */
    public ClusterNode(String name, String file, MachineSnapshot snapshot, String error) {
        this(name, file, snapshot == null ? null : NodeSummary.of(snapshot), error, snapshot);
    }

    /** A node read from {@code file} as its summary only. */
    public static ClusterNode summarised(String name, String file, NodeSummary summary) {
        return new ClusterNode(name, file, summary, null, null);
    }

    /** The same node under another name. */
    public ClusterNode named(String newName) {
        return new ClusterNode(newName, file, summary, error, held);
    }

    @JsonIgnore
    public boolean ok() {
        return summary != null;
    }

    /**
     * The node's full snapshot: the one held in memory, else its file read again (untrusted: one-line errors), as a
     * snapshot, a report or a file of one of {@code others} (a native-call trace).
     */
    public MachineSnapshot readSnapshot(SnapshotIO.OtherFormats others) throws SnapshotIO.ReadException {
        if (held != null) {
            return held;
        }
        if (!ok()) {
            throw new SnapshotIO.ReadException(error);
        }
        return SnapshotIO.read(Path.of(file), others);
    }
}
