package dev.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.cli.ExitCodes;
import dev.fabricscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** {@code fabricscope samples} and {@code fabricscope show --sample NAME}. */
class SamplesCliTest {

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void samplesListsEveryNameOnePerLineNameFirst() {
        Run r = run("samples");
        assertEquals(ExitCodes.OK, r.exit());
        // Descriptions wrap at 120 columns, continuing under the description column: join them back.
        List<String> lines = java.util.Arrays.stream(r.out().split("\n(?! )")).map(l -> l.replaceAll("\n +", " ").strip()).toList();
        assertEquals(Samples.names().size(), lines.size());
        for (int i = 0; i < lines.size(); i++) {
            Samples.Sample s = Samples.list().get(i);
            String[] parts = lines.get(i).split("\\s+", 2);
            assertEquals(s.name(), parts[0]);
            assertEquals(s.description(), parts[1]);
        }
        assertTrue(lines.get(0).startsWith("h200-vm "), "the captured sample comes first");
        assertTrue(lines.stream().skip(1).allMatch(l -> l.split("\\s+", 2)[1].startsWith("SYNTHETIC:")));
    }

    @Test
    void showRendersTheDgxH100Sample() {
        Run r = run("show", "--sample", "dgx-h100");
        assertEquals(ExitCodes.OK, r.exit(), r.err());
        String out = r.out();
        assertTrue(out.contains("SYNTHETIC sample (not a real reading)"), out);
        assertTrue(out.contains("dgx-h100-sample"), out);
        assertTrue(out.contains("GPU7  NV18  NV18  NV18  NV18  NV18  NV18  NV18  X"), out);
        assertTrue(out.contains("18/18 active, NVLink4, 450 GB/s per direction, 18 to NVSwitch"), out);
        assertTrue(out.contains("NVSwitches: 4"), out);
        assertTrue(out.contains("COMPLETED"), out);
        assertEquals("", r.err());
    }

    static Stream<String> names() {
        return Samples.names().stream();
    }

    @ParameterizedTest
    @MethodSource("names")
    void showRendersEverySampleAsTextAndJson(String name) {
        Run text = run("show", "--sample", name);
        assertEquals(ExitCodes.OK, text.exit(), text.err());
        assertTrue(text.out().contains("Topology (as nvidia-smi topo -m):"), text.out());
        Run json = run("show", "--sample", name, "--json");
        assertEquals(ExitCodes.OK, json.exit(), json.err());
        assertTrue(json.out().startsWith("{"), json.out());
    }

    @Test
    void unknownSampleIsAOneLineUsageError() {
        Run r = run("show", "--sample", "dgx-h999");
        assertEquals(ExitCodes.USAGE, r.exit());
        // the cause on one line, then the usage hint every usage error ends with (cli.ErrorLine)
        assertEquals(List.of("fabricscope: unknown sample 'dgx-h999'; valid: " + String.join(", ", Samples.names()),
                "Try 'fabricscope show --help'."), r.err().lines().toList(), r.err());
    }
}
