package dev.fabricscope.advisor.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/upstream-coverage.md is rendered from the inventory and must equal what {@link CoverageDoc} renders, so it cannot
 * drift. {@code -Dfabricscope.writeDocs=true} writes it instead ({@link CoverageDoc#REGENERATE}).
 */
class UpstreamCoverageDocTest {

    static final Path DOC = Path.of("").toAbsolutePath().getParent().resolve("docs/upstream-coverage.md");

    @Test
    void theDocIsTheRenderedInventory() throws IOException {
        String rendered = CoverageDoc.render(UpstreamInventory.bundled());
        if (Boolean.getBoolean("fabricscope.writeDocs")) {
            Files.writeString(DOC, rendered);
        }
        assertTrue(Files.exists(DOC), "docs/upstream-coverage.md is missing; run " + CoverageDoc.REGENERATE);
        assertEquals(rendered, Files.readString(DOC), "docs/upstream-coverage.md is stale; run " + CoverageDoc.REGENERATE);
    }

    @Test
    void everyLineFitsAndEveryBranchIsListed() {
        UpstreamInventory inv = UpstreamInventory.bundled();
        String rendered = CoverageDoc.render(inv);
        for (String line : rendered.split("\n")) {
            boolean table = line.startsWith("|");
            boolean unbreakable = !line.strip().contains(" ");
            assertTrue(table || unbreakable || line.length() <= CoverageDoc.WIDTH, "line over 120 columns: " + line);
            assertTrue(line.chars().noneMatch(c -> c < 0x20), "control character in: " + line);
        }
        long bullets = rendered.lines().filter(l -> l.matches("- L\\d+ .*")).count();
        assertEquals(inv.entries().size(), bullets);
        for (PendingFile p : inv.pending()) {
            assertTrue(rendered.contains("`" + p.path() + "`"), p.path());
        }
    }

    @Test
    void aChangedEntryChangesTheDoc() {
        UpstreamInventory inv = UpstreamInventory.bundled();
        List<InventoryEntry> fewer = inv.entries().subList(1, inv.entries().size());
        assertNotEquals(CoverageDoc.render(inv), CoverageDoc.render(new UpstreamInventory(inv.pins(), fewer, inv.pending())));
    }
}
