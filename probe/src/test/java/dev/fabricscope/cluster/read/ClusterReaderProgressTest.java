package dev.fabricscope.cluster.read;

import dev.fabricscope.cluster.ClusterFixtures;
import dev.fabricscope.cluster.ClusterNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ClusterReader tells its progress once per file (the desktop app's progress bar), unreadable files included. */
class ClusterReaderProgressTest {

    @Test
    void progressCountsEveryFileUpToTheTotal(@TempDir Path dir) throws Exception {
        ClusterFixtures.gb200Rack(dir);
        Files.writeString(dir.resolve("broken.json"), "{");
        List<int[]> seen = Collections.synchronizedList(new ArrayList<>());
        List<ClusterNode> nodes = ClusterReader.read(dir, (read, total) -> seen.add(new int[] {read, total}));
        assertEquals(19, nodes.size());
        assertEquals(19, seen.size());
        assertTrue(seen.stream().allMatch(p -> p[1] == 19));
        assertEquals(19, seen.stream().mapToInt(p -> p[0]).max().orElse(0));
        assertEquals(19, seen.stream().mapToInt(p -> p[0]).distinct().count(), "each count once");
    }
}
