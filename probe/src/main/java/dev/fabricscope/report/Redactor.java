package dev.fabricscope.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.report.Redaction.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces identifying data in a report with stable pseudonyms: the same value gets the same pseudonym everywhere in
 * the report, so cross-references (a GPU UUID in {@code CUDA_VISIBLE_DEVICES}, a user's path) still match.
 *
 * <p>Two sources of identifiers: the fields that hold them (host name, GPU serials and UUIDs, fabric cluster UUIDs,
 * host-valued environment variables such as {@code NCCL_COMM_ID}), and patterns found in any string (GPU/MIG UUIDs,
 * other UUIDs, IPv4/IPv6 addresses, MAC and InfiniBand hardware addresses, user names after {@code /home/},
 * {@code /Users/} and {@code C:\Users\}). A value found either way is then replaced wherever it occurs as a whole word,
 * in every string and map key of the report, except when it is too short or too common a word to search for safely
 * (then only the field holding it is replaced). Loopback and unspecified addresses, and the all-zero cluster UUID
 * (which means "no multi-node fabric"), are not identifiers and are kept. Enum-valued fields, PCI addresses and
 * compute capabilities are never touched.
 */
public final class Redactor {

    private static final Pattern GPU_UUID = Pattern.compile(
            "(?<![0-9A-Za-z])(GPU|MIG)-[0-9A-Fa-f]{4,8}(?:-[0-9A-Fa-f]{1,12}){0,4}(?![0-9A-Za-z])");
    private static final Pattern UUID = Pattern.compile(
            "(?<![0-9A-Za-z])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Za-z])");
    private static final Pattern MAC = Pattern.compile(
            "(?<![0-9A-Za-z:-])[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\\1){4,18}[0-9A-Fa-f]{2}(?![0-9A-Za-z:-])");
    private static final Pattern IPV6 = Pattern.compile(
            "(?<![0-9A-Za-z:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\\d{1,3}\\.){3}\\d{1,3})?(?![0-9A-Za-z:])");
    private static final Pattern IPV4 = Pattern.compile(
            "(?<![0-9.])(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(?![0-9]|\\.\\d)");
    private static final Pattern HOME_PATH = Pattern.compile(
            "((?:/home|/Users|/var/home|/export/home|/u)/|\\\\Users\\\\)([^/\\\\\\s\"'`:;,=|()<>]+)");

    /** Fields whose whole subtree has a parsed shape and holds nothing identifying (PCI addresses, compute capability). */
    private static final Set<String> STRUCTURAL = Set.of("pci", "a", "b", "remotePci", "computeCapability", "gpuLinks",
            "schemaVersion", "reportVersion");
    /** Direct string fields holding enum values or format markers: never rewritten. */
    private static final Set<String> ENUM_FIELDS = Set.of("format", "origin", "severity", "kind", "outcome", "status");
    /** Environment variables whose value names a host (optionally with a port). */
    private static final Pattern HOST_VAR = Pattern.compile(".*(_ADDR|_HOST|_HOSTNAME|_IP|_IFADDR)$|NCCL_COMM_ID");
    /** Words too common to search for in free text: replaced only where a field holds them. */
    private static final Set<String> COMMON = Set.of("user", "users", "root", "admin", "administrator", "ubuntu",
            "debian", "centos", "home", "data", "shared", "nvidia", "cuda", "local", "test", "guest", "runner",
            "gpu", "gpus", "node", "host", "server", "worker", "default", "none", "unknown", "localhost", "lib", "opt");

    private final Map<Kind, Map<String, String>> pseudonyms = new EnumMap<>(Kind.class);
    private final Set<String> originals = new HashSet<>();
    private final Set<String> assigned = new HashSet<>();
    /** Whole-word replacements, longest first once {@link #sortLiterals()} ran. */
    private final List<String[]> literals = new ArrayList<>();

    private Redactor() {
    }

    /** The report with identifiers replaced and its {@code redaction} section filled in. */
    public static Report redact(Report report) {
        Redactor r = new Redactor();
        ObjectNode tree = Json.mapper().valueToTree(report);
        r.collectFields(tree);
        r.scan(tree, null);
        r.sortLiterals();
        JsonNode out = r.rewrite(tree, null);
        Report red;
        try {
            red = Json.mapper().treeToValue(out, Report.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("redaction broke the report: " + e.getOriginalMessage(), e);
        }
        List<Redaction.Replaced> kinds = new ArrayList<>();
        r.pseudonyms.forEach((k, m) -> {
            if (!m.isEmpty()) {
                kinds.add(new Redaction.Replaced(k, m.size()));
            }
        });
        return red.with(red.snapshot(), red.advice(), red.checks(), new Redaction(true, kinds));
    }

    // ---- discovery ----

    private void collectFields(ObjectNode report) {
        JsonNode snap = report.path("snapshot");
        JsonNode host = snap.path("host").path("hostname");
        if (host.path("value").isTextual()) {
            String h = host.path("value").asText();
            ((ObjectNode) host).put("value", hostname(h));
        }
        for (JsonNode g : snap.path("gpus")) {
            replaceValue(g.path("serial"), v -> field(Kind.SERIAL, v));
            replaceValue(g.path("uuid"), this::gpuUuid);
            replaceValue(g.path("fabric").path("clusterUuid"),
                    v -> FabricInfo.ZERO_UUID.equals(v) ? v : field(Kind.CLUSTER_UUID, v.toLowerCase(Locale.ROOT)));
        }
        snap.path("environment").fields().forEachRemaining(e -> {
            if (HOST_VAR.matcher(e.getKey()).matches() && e.getValue().isTextual()) {
                for (String part : e.getValue().asText().split("[,\\s]+")) {
                    String h = part.replaceFirst("^\\[", "").replaceFirst("\\]?(:\\d+)?$", "");
                    if (!h.isEmpty() && !IPV4.matcher(h).matches() && !h.contains(":") && h.matches("[A-Za-z0-9._-]+")) {
                        hostname(h);
                    }
                }
            }
        });
    }

    private static void replaceValue(JsonNode reading, Function<String, String> f) {
        if (reading.path("value").isTextual()) {
            ((ObjectNode) reading).put("value", f.apply(reading.path("value").asText()));
        }
    }

    /** A host name, its first label and its domain: the same pseudonym (with the domain's own) everywhere. */
    private String hostname(String h) {
        String p = field(Kind.HOSTNAME, h);
        int dot = h.indexOf('.');
        if (dot > 0 && !IPV4.matcher(h).matches()) {
            String shortName = h.substring(0, dot);
            String domain = h.substring(dot + 1);
            register(Kind.HOSTNAME, shortName, p);
            if (domain.contains(".")) {
                field(Kind.HOSTNAME, domain);
            }
        }
        return p;
    }

    private String gpuUuid(String v) {
        String prefix = v.regionMatches(true, 0, "MIG-", 0, 4) ? "MIG" : "GPU";
        return pseudonym(Kind.GPU_UUID, v.toLowerCase(Locale.ROOT), prefix + "-redacted-", true);
    }

    /** A value held by a field: replaced there, and searched for everywhere when distinctive. */
    private String field(Kind kind, String v) {
        return pseudonym(kind, v, kind.stem() + "-", true);
    }

    private String pseudonym(Kind kind, String key, String stem, boolean literal) {
        Map<String, String> m = pseudonyms.computeIfAbsent(kind, k -> new LinkedHashMap<>());
        String p = m.get(key);
        if (p == null) {
            int n = m.size() + 1;
            while (originals.contains(stem + n) || assigned.contains(stem + n)) {
                n++;
            }
            p = stem + n;
            m.put(key, p);
            assigned.add(p);
            originals.add(key);
            if (literal) {
                register(kind, key, p);
            }
        }
        return p;
    }

    private void register(Kind kind, String original, String pseudonym) {
        originals.add(original);
        if (original.length() >= 3 && !COMMON.contains(original.toLowerCase(Locale.ROOT))
                && original.chars().anyMatch(Character::isLetterOrDigit) && !original.equals(pseudonym)) {
            literals.add(new String[] {original, pseudonym});
        }
    }

    private void sortLiterals() {
        literals.sort(Comparator.comparingInt((String[] l) -> -l[0].length()));
    }

    /** Finds pattern identifiers in every string, in document order, so numbering is stable. */
    private void scan(JsonNode n, String field) {
        if (n.isTextual()) {
            if (field == null || !ENUM_FIELDS.contains(field)) {
                patterns(n.asText(), isVersionField(field));
            }
        } else if (n.isObject()) {
            n.fields().forEachRemaining(e -> {
                if (!STRUCTURAL.contains(e.getKey())) {
                    patterns(e.getKey(), false);
                    scan(e.getValue(), e.getKey());
                }
            });
        } else if (n.isArray()) {
            for (JsonNode c : n) {
                scan(c, field);
            }
        }
    }

    private static boolean isVersionField(String field) {
        return field != null && field.toLowerCase(Locale.ROOT).contains("version");
    }

    // ---- replacement ----

    private JsonNode rewrite(JsonNode n, String field) {
        if (n.isTextual()) {
            if (field != null && ENUM_FIELDS.contains(field)) {
                return n;
            }
            String s = n.asText();
            String r = words(patterns(s, isVersionField(field)));
            return r.equals(s) ? n : TextNode.valueOf(r);
        }
        if (n.isObject()) {
            ObjectNode o = Json.mapper().createObjectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (STRUCTURAL.contains(e.getKey())) {
                    o.set(e.getKey(), e.getValue());
                } else {
                    o.set(words(patterns(e.getKey(), false)), rewrite(e.getValue(), e.getKey()));
                }
            }
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = Json.mapper().createArrayNode();
            for (JsonNode c : n) {
                a.add(rewrite(c, field));
            }
            return a;
        }
        return n;
    }

    /** Replaces every pattern identifier in {@code s}, registering new ones (each pattern sees the previous one's output). */
    private String patterns(String s, boolean versionField) {
        boolean dash = s.indexOf('-') >= 0;
        boolean colon = s.indexOf(':') >= 0;
        if (dash && (s.contains("GPU-") || s.contains("MIG-"))) {
            s = each(s, GPU_UUID, m -> gpuUuidOrPrefix(m.group()));
        }
        s = !dash ? s : each(s, UUID, m -> {
            String v = m.group().toLowerCase(Locale.ROOT);
            if (FabricInfo.ZERO_UUID.equals(v)) {
                return m.group();
            }
            Map<String, String> clusters = pseudonyms.getOrDefault(Kind.CLUSTER_UUID, Map.of());
            return clusters.containsKey(v) ? clusters.get(v) : field(Kind.UUID, v);
        });
        s = !dash && !colon ? s : each(s, MAC, m -> {
            String v = m.group().toLowerCase(Locale.ROOT).replace('-', ':');
            return v.matches("[0:]+") ? m.group() : field(Kind.MAC_ADDRESS, v);
        });
        s = !colon ? s : each(s, IPV6, m -> ipv6(m.group()));
        if (!versionField && s.indexOf('.') >= 0) {
            s = each(s, IPV4, m -> {
                String v = m.group();
                return v.startsWith("127.") || v.equals("0.0.0.0") || v.equals("255.255.255.255") ? v : field(Kind.IP_ADDRESS, v);
            });
        }
        if (s.contains("/home/") || s.contains("/Users/") || s.contains("/u/") || s.contains("\\Users\\")) {
            s = each(s, HOME_PATH, m -> m.group(1) + field(Kind.USER_NAME, m.group(2)));
        }
        return s;
    }

    private String gpuUuidOrPrefix(String v) {
        String key = v.toLowerCase(Locale.ROOT);
        Map<String, String> known = pseudonyms.getOrDefault(Kind.GPU_UUID, Map.of());
        if (!known.containsKey(key)) {
            for (Map.Entry<String, String> e : known.entrySet()) {
                if (e.getKey().startsWith(key) && key.length() >= 8) {
                    return e.getValue(); // a UUID prefix, as CUDA_VISIBLE_DEVICES accepts: same GPU, same pseudonym
                }
            }
        }
        return gpuUuid(v);
    }

    private String ipv6(String v) {
        boolean compressed = v.contains("::");
        String[] groups = v.split(":", -1);
        long nonEmpty = java.util.Arrays.stream(groups).filter(g -> !g.isEmpty()).count();
        boolean looksLikeAddress = compressed
                ? nonEmpty >= 3 || java.util.Arrays.stream(groups).anyMatch(g -> g.length() == 4)
                : groups.length == 8 || (groups.length == 7 && groups[6].contains("."));
        if (!looksLikeAddress || compressed && v.indexOf("::") != v.lastIndexOf("::")) {
            return v;
        }
        String key = v.toLowerCase(Locale.ROOT);
        if (key.equals("::1") || key.equals("::")) {
            return v;
        }
        return field(Kind.IP_ADDRESS, key);
    }

    private static String each(String s, Pattern p, Function<Matcher, String> f) {
        Matcher m = p.matcher(s);
        if (!m.find()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        int last = 0;
        do {
            sb.append(s, last, m.start()).append(f.apply(m));
            last = m.end();
        } while (m.find());
        return sb.append(s, last, s.length()).toString();
    }

    /** Whole-word replacement of every known value (word characters: letters, digits, underscore). */
    private String words(String s) {
        for (String[] l : literals) {
            String from = l[0];
            int i = s.indexOf(from);
            if (i < 0) {
                continue;
            }
            StringBuilder sb = new StringBuilder(s.length());
            int last = 0;
            while (i >= 0) {
                int end = i + from.length();
                boolean before = i > 0 && isWord(s.charAt(i - 1)) && isWord(from.charAt(0));
                boolean after = end < s.length() && isWord(s.charAt(end)) && isWord(from.charAt(from.length() - 1));
                if (!before && !after) {
                    sb.append(s, last, i).append(l[1]);
                    last = end;
                    i = s.indexOf(from, end);
                } else {
                    i = s.indexOf(from, i + 1);
                }
            }
            s = sb.append(s, last, s.length()).toString();
        }
        return s;
    }

    private static boolean isWord(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
