package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code --version} alone skips picocli (issue 31): it must print exactly what picocli's version option prints. */
class CliVersionTest {

    @Test
    void theFastPathPrintsWhatPicocliPrints() {
        StringWriter fast = new StringWriter();
        Main.printVersion(new PrintWriter(fast));
        for (String flag : new String[] {"--version", "-V"}) {
            CliTest.Run r = CliTest.run(flag);
            assertEquals(0, r.code());
            assertEquals(r.out(), fast.toString(), flag);
        }
    }

    @Test
    void onlyTheVersionAloneTakesTheFastPath() {
        assertTrue(Main.isVersionOnly("--version"));
        assertTrue(Main.isVersionOnly("-V"));
        assertFalse(Main.isVersionOnly("probe", "--version"));
        assertFalse(Main.isVersionOnly("--version", "--help"));
        assertFalse(Main.isVersionOnly());
    }
}
