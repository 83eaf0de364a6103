package dev.fabricscope.cluster;

import dev.fabricscope.cluster.read.ClusterReader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.render.ClusterText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 item 6: cluster show says what it skipped (subfolders, special files) instead of dropping them silently. */
class ClusterSkipTest {

    @TempDir
    Path dir;

    @Test
    void subfoldersAndSpecialFilesAreNamedAsSkipped() throws Exception {
        ClusterFixtures.write(dir, ClusterFixtures.node(ClusterFixtures.sample("dgx-h100"), "node01", 1), "node01.json");
        Files.createDirectories(dir.resolve("more-nodes"));
        Path fifo = dir.resolve("node02.json");
        boolean haveFifo = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(10, TimeUnit.SECONDS) && Files.exists(fifo);
        Files.writeString(dir.resolve("notes.txt"), "not a report");
        ClusterView v = ClusterAnalysis.analyse(dir.toString(), ClusterReader.read(dir));
        assertEquals(1, v.readable().size());
        String text = ClusterText.render(v);
        assertTrue(text.contains("more-nodes: skipped: a folder"), text);
        if (haveFifo) {
            assertTrue(text.contains("node02.json: skipped: not a regular file"), text);
        }
        assertEquals(haveFifo ? 2 : 1, v.unreadable().size());
    }
}
