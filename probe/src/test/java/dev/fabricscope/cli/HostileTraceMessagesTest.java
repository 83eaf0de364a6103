package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: a hostile trace (a string over Jackson's 1,000,000-character limit, values that do not bind) is one line
 * naming the file and what is wrong, exit 4, in every command that reads a trace — never Jackson's own wording.
 */
class HostileTraceMessagesTest {

    static final Path TRACE = CapturedTraces.PASSTHROUGH_1GPU.resolve("trace.json");

    @TempDir
    Path tmp;

    private Path edited(String name, String from, String to) throws Exception {
        String text = Files.readString(TRACE);
        assertTrue(text.contains(from), from);
        return Files.writeString(tmp.resolve(name), text.replaceFirst(java.util.regex.Pattern.quote(from),
                java.util.regex.Matcher.quoteReplacement(to)));
    }

    private static List<List<String>> commands(Path trace) {
        return List.of(List.of("probe", "--replay", trace.toString()), List.of("show", "--snapshot", trace.toString()),
                List.of("diff", trace.toString(), TRACE.toString()));
    }

    private static String oneLineExit4(List<String> args) {
        CliTest.Run r = CliTest.run(args.toArray(String[]::new));
        String what = String.join(" ", args.subList(0, 2)) + ": " + r.err();
        assertEquals(ExitCodes.BAD_INPUT, r.code(), what);
        assertEquals(1, r.err().lines().count(), what);
        for (String jackson : List.of("StreamReadConstraints", "Cannot deserialize", "DeserializationConfig", "Cannot map",
                "dev.fabricscope", "com.fasterxml", "`", "internal error")) {
            assertFalse(r.err().contains(jackson), what);
        }
        return r.err();
    }

    @Test
    void aStringOverTheLimitIsNamedAsSuch() throws Exception {
        Path huge = edited("huge.trace.json", "\"recorded live by fabricscope 0.1.0-SNAPSHOT\"", "\"" + "x".repeat(1_000_001) + "\"");
        for (List<String> args : commands(huge)) {
            String err = oneLineExit4(args);
            assertTrue(err.startsWith("fabricscope: " + huge + ": "), err);
            assertTrue(err.contains("a text value of 1,000,001 characters, over the 1,000,000-character limit"), err);
        }
    }

    @Test
    void valuesThatDoNotBindNameWhereAndWhat() throws Exception {
        Path wrong = edited("wrong.trace.json", "\"seq\" : 1,", "\"seq\" : \"one\",");
        for (List<String> args : commands(wrong)) {
            String err = oneLineExit4(args);
            assertTrue(err.startsWith("fabricscope: " + wrong + ": "), err);
            assertTrue(err.contains("$.calls[1].seq"), err);
        }
        Path missing = edited("null.trace.json", "\"traceVersion\" : 1", "\"traceVersion\" : null");
        for (List<String> args : commands(missing)) {
            String err = oneLineExit4(args);
            assertTrue(err.contains("traceVersion"), err);
        }
    }
}
