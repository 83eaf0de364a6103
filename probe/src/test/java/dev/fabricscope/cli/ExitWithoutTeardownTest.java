package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Live commands end with libc {@code _exit} once printed; nothing they print or answer may change by it. */
class ExitWithoutTeardownTest {

    @Test
    void onlyLiveProbeAdviceAndReportSkipTheTeardown() {
        assertTrue(Main.skipsTeardown("probe", "--json"));
        assertTrue(Main.skipsTeardown("advise", "--tp", "2"));
        assertTrue(Main.skipsTeardown("report", "--format", "md"));
        assertFalse(Main.skipsTeardown("check", "allreduce"), "a check exits the ordinary way");
        assertFalse(Main.skipsTeardown("probe", "--replay", "t.json"), "no driver library was loaded");
        assertFalse(Main.skipsTeardown("show", "--sample", "dgx-h100"));
        assertFalse(Main.skipsTeardown("--version"));
        assertFalse(Main.skipsTeardown());
    }

    @Test
    void theProcessPrintsAndAnswersTheSameEitherWay() throws Exception {
        for (String[] args : List.of(new String[] {"probe", "--json"}, new String[] {"advise", "--json", "--tp", "1"})) {
            Run fast = run("on", args);
            Run ordinary = run("off", args);
            assertEquals(ordinary.code, fast.code, String.join(" ", args));
            JsonNode f = Json.mapper().readTree(fast.out);
            JsonNode o = Json.mapper().readTree(ordinary.out);
            assertEquals(fieldNames(o), fieldNames(f), "the whole document, to its last brace: " + String.join(" ", args));
            assertEquals(ordinary.err.lines().filter(l -> l.startsWith("fabricscope:")).toList(),
                    fast.err.lines().filter(l -> l.startsWith("fabricscope:")).toList());
        }
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(String fastExit, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(OutputTargetsTest.javaCommand(args));
        cmd.add(1, "-Dfabricscope.fastExit=" + fastExit);
        Path out = Files.createTempFile("fabricscope-exit", ".out");
        Path err = Files.createTempFile("fabricscope-exit", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
