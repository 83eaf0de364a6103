package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.JsonTrees;
import dev.fabricscope.json.Json;
import dev.fabricscope.text.Escape;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17 item 6: a seeded fuzz run of the command line over mutated reports (truncations, byte flips, swapped
 * types, hostile strings, extreme numbers, duplicated keys, dropped fields), each through a random reading command
 * and format. No run may exit 1, print a stack trace or a raw control or bidi character, or (with --redact) leak an
 * identifier that redaction finds by its pattern.
 */
class CliFuzzTest {

    private static final int CASES = 600;
    /** Identifiers planted in the base report that redaction finds by shape wherever they are. */
    private static final List<String> SECRETS = List.of("10.77.66.55", "0c:42:a1:77:66:55", "0x0c42a10377665544",
            "692-2G520-0777-665", "fuzzuser", "GPU-7e57a1b2-0c3d-4e5f-8a9b-77665544aa11");
    private static final List<String> HOSTILE = List.of("\u001b]0;owned\u0007", "\u001b[2J\u001b[1;32mALL CHECKS PASSED", "\r\u0085",
            "\u202e\u2066", "\u009b31m", "\u007f\u0000", "x".repeat(5_000), "\ud800", "@everyone <script>", "`|*_[]");

    @TempDir
    Path tmp;

    @Test
    void mutatedReportsNeverCrashLeakOrDriveTheTerminal() throws Exception {
        CliTest.Run base = CliTest.run("report", "--sample", "h200-vm", "--framework", "sglang");
        ObjectNode tree = (ObjectNode) Json.mapper().readTree(base.out());
        ObjectNode env = (ObjectNode) tree.at("/snapshot/environment");
        env.put("NCCL_COMM_ID", SECRETS.get(0) + ":29500");
        env.put("FABRICSCOPE_FUZZ_MAC", "mac " + SECRETS.get(1) + " guid " + SECRETS.get(2) + " part " + SECRETS.get(3));
        env.put("NCCL_DEBUG_FILE", "/home/" + SECRETS.get(4) + "/nccl.log");
        env.put("CUDA_VISIBLE_DEVICES", SECRETS.get(5));
        String baseText = Json.write(tree);
        Path good = Files.writeString(tmp.resolve("good.json"), baseText);
        Random rnd = new Random(20261201L);
        int[] outcomes = new int[6];
        int[] redactedRead = new int[1];
        assertTimeoutPreemptively(Duration.ofSeconds(240), () -> {
            for (int i = 0; i < CASES; i++) {
                String what = "case " + i;
                byte[] input = mutate(rnd, (ObjectNode) tree.deepCopy(), baseText, i);
                Path dir = Files.createDirectories(tmp.resolve("c" + (i % 50)));
                Path file = dir.resolve("node.json");
                Files.write(file, input);
                String[] args = switch (rnd.nextInt(9)) {
                    case 0 -> new String[] {"show", "--snapshot", file.toString()};
                    case 1 -> new String[] {"show", "--snapshot", file.toString(), "--json"};
                    case 2 -> new String[] {"advise", "--snapshot", file.toString()};
                    case 3 -> new String[] {"report", "--from", file.toString(), "--redact", "--format", "md"};
                    case 4 -> new String[] {"report", "--from", file.toString(), "--redact", "--format", "html"};
                    case 5 -> new String[] {"report", "--from", file.toString(), "--redact", "--format", "json"};
                    case 6 -> new String[] {"diff", good.toString(), file.toString()};
                    case 7 -> new String[] {"cluster", "show", dir.toString()};
                    default -> new String[] {"report", "--snapshot", file.toString(), "--redact", "--format", "md"};
                };
                CliTest.Run r = CliTest.run(args);
                outcomes[Math.min(r.code(), 5)]++;
                String cmd = what + " (" + args[0] + " " + args[1] + ")";
                if (r.code() == ExitCodes.FAILURE) {
                    fail(cmd + ": exit 1: " + r.err());
                }
                for (String out : List.of(r.out(), r.err())) {
                    if (out.contains("\tat ") || out.contains("Exception:") || out.contains("internal error")) {
                        fail(cmd + ": a stack trace or internal error: " + out.substring(0, Math.min(500, out.length())));
                    }
                    for (int k = 0; k < out.length(); k++) {
                        char c = out.charAt(k);
                        if (c != '\n' && c != '\t' && Escape.invisible(c) && !(c == '\u200b' && k > 0 && out.charAt(k - 1) == '@')
                                && !(Character.isSurrogate(c) && validPair(out, k))) {
                            fail(cmd + ": raw U+" + Integer.toHexString(c) + " in the output");
                        }
                    }
                }
                if (java.util.Arrays.asList(args).contains("--redact") && r.code() == ExitCodes.OK) {
                    redactedRead[0]++;
                    String lower = r.out().toLowerCase(Locale.ROOT);
                    for (String secret : SECRETS) {
                        if (lower.contains(secret.toLowerCase(Locale.ROOT))) {
                            fail(cmd + ": '" + secret + "' leaks through --redact");
                        }
                    }
                }
            }
        });
        // the run proves something only when many mutants are read (and redacted) and many are refused
        assertTrue(outcomes[ExitCodes.OK] > CASES / 4 && outcomes[ExitCodes.BAD_INPUT] > CASES / 10 && redactedRead[0] > CASES / 10,
                "exit codes " + java.util.Arrays.toString(outcomes) + ", redacted and read " + redactedRead[0]);
    }

    private static boolean validPair(String s, int k) {
        char c = s.charAt(k);
        return Character.isHighSurrogate(c) ? k + 1 < s.length() && Character.isLowSurrogate(s.charAt(k + 1))
                : k > 0 && Character.isHighSurrogate(s.charAt(k - 1));
    }

    private static byte[] mutate(Random rnd, ObjectNode tree, String text, int i) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        switch (i % 8) {
            case 0 -> {
                return java.util.Arrays.copyOf(bytes, rnd.nextInt(bytes.length));
            }
            case 1 -> {
                byte[] b = bytes.clone();
                for (int k = 0; k < 1 + rnd.nextInt(4); k++) {
                    b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                }
                return b;
            }
            case 2 -> {
                int at = text.indexOf("\"", rnd.nextInt(text.length()));
                int end = at < 0 ? -1 : text.indexOf("\" :", at + 1);
                if (end > 0 && end - at < 40) {
                    String key = text.substring(at, end + 3);
                    int brace = text.lastIndexOf('{', at);
                    return (text.substring(0, brace + 1) + key + " 1, " + text.substring(brace + 1)).getBytes(StandardCharsets.UTF_8);
                }
                return bytes;
            }
            default -> {
                List<JsonNode[]> slots = new ArrayList<>();
                JsonTrees.collect(tree, slots);
                for (int k = 0; k < 1 + rnd.nextInt(3); k++) {
                    JsonNode[] slot = slots.get(rnd.nextInt(slots.size()));
                    set(slot, replacement(rnd, get(slot)));
                }
                return Json.write(tree).getBytes(StandardCharsets.UTF_8);
            }
        }
    }

    private static JsonNode replacement(Random rnd, JsonNode old) {
        var f = Json.mapper().getNodeFactory();
        return switch (rnd.nextInt(10)) {
            case 0 -> f.numberNode(-5);
            case 1 -> f.numberNode(-8_589_934_592L);
            case 2 -> f.numberNode(new java.math.BigDecimal("1e400"));
            case 3 -> f.textNode("2.x");
            case 4 -> f.nullNode();
            case 5 -> f.objectNode();
            case 6 -> f.arrayNode().add(old);
            case 7 -> f.booleanNode(true);
            default -> TextNode.valueOf((old.isTextual() ? old.textValue() : old.toString()) + HOSTILE.get(rnd.nextInt(HOSTILE.size())));
        };
    }


    private static JsonNode get(JsonNode[] slot) {
        return slot[0] instanceof ObjectNode o ? o.get(slot[1].textValue()) : ((ArrayNode) slot[0]).get(slot[1].intValue());
    }

    private static void set(JsonNode[] slot, JsonNode v) {
        if (slot[0] instanceof ObjectNode o) {
            o.set(slot[1].textValue(), v);
        } else {
            ((ArrayNode) slot[0]).set(slot[1].intValue(), v);
        }
    }
}
