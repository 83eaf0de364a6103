package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code show} with plain arguments skips picocli (issue 31): it must print exactly what picocli's command prints. */
class ShowFastPathTest {

    private static final String REPORT = "src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/report.json";
    private static final String TRACE = "src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/trace.json";

    @Test
    void theFastPathPrintsWhatPicocliPrints() {
        List<String[]> plain = List.of(new String[] {"show", "--sample", "h200-vm"}, new String[] {"show", "--sample=dgx-h100"},
                new String[] {"show", "--sample", "gb200-nvl72-tray", "--wide"}, new String[] {"show", "--all", "--sample", "hgx-b200"},
                new String[] {"show", "--sample", "dgx-a100", "--json"}, new String[] {"show", "--snapshot", REPORT},
                new String[] {"show", "--snapshot=" + REPORT, "--wide"}, new String[] {"show", "--snapshot", TRACE},
                new String[] {"show", "--json", "--snapshot", REPORT});
        for (String[] args : plain) {
            ShowCommand c = ShowFastPath.parse(args).orElseThrow(() -> new AssertionError(String.join(" ", args) + " is plain"));
            StringWriter fast = new StringWriter();
            Optional<Integer> code = ShowFastPath.run(c, new PrintWriter(fast));
            CliTest.Run slow = CliTest.run(args);
            assertEquals(Optional.of(slow.code()), code, String.join(" ", args));
            assertEquals(slow.out(), fast.toString(), String.join(" ", args));
            assertEquals(0, slow.code());
        }
    }

    @Test
    void aFailingRunPrintsNothingAndLeavesItToPicocli() {
        for (String[] args : List.of(new String[] {"show", "--sample", "no-such-sample"}, new String[] {"show", "--snapshot", "no/such/file.json"},
                new String[] {"show", "--snapshot", "pom.xml"})) {
            StringWriter fast = new StringWriter();
            assertEquals(Optional.empty(), ShowFastPath.run(ShowFastPath.parse(args).orElseThrow(), new PrintWriter(fast)), String.join(" ", args));
            assertEquals("", fast.toString());
            assertTrue(CliTest.run(args).code() != 0, "picocli's run says why");
        }
    }

    @Test
    void onlyPlainArgumentsTakeTheFastPath() {
        for (String[] args : List.of(new String[] {"show"}, new String[] {"show", "--help"}, new String[] {"show", "--sample"},
                new String[] {"show", "--sample", "--json"}, new String[] {"show", "--sample="}, new String[] {"show", "--sample", "a", "--sample", "b"},
                new String[] {"show", "--sample", "a", "--snapshot", "b"}, new String[] {"show", "--json"}, new String[] {"show", "--json", "--json", "--sample", "a"},
                new String[] {"show", "--wide=true", "--sample", "a"}, new String[] {"show", "--sample", "a", "extra"}, new String[] {"probe", "--sample", "a"},
                new String[] {"show", "-h"}, new String[] {"show", "--sample", "a", "-V"})) {
            assertEquals(Optional.empty(), ShowFastPath.parse(args).map(c -> "parsed"), String.join(" ", args));
        }
    }
}
