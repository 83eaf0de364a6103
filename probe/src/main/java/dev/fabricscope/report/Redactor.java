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
 *
 * <p>A native-call trace ({@code probe --record}) is redacted by the same pass ({@link #redactTrace}): its calls'
 * arguments and answers and the snapshot it carries get the same pseudonyms, so the trace still replays (a path the
 * probe builds from a redacted {@code HOME} is the redacted path the trace holds). The fields that hold identifiers
 * there are the answers of {@code nvmlDeviceGetUUID}, {@code nvmlDeviceGetSerial}, the host-name files and the fabric
 * info's cluster UUID; the latter stays UUID-shaped ({@code 4edac7ed-0000-4000-8000-00000000000N}, hex-speak for
 * "redacted") because the probe decodes it as 16 bytes. The function names of the calls are never rewritten, and
 * dotted numbers in wheel names and {@code Version:} lines are package versions, not IP addresses.
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

    /** InfiniBand port and node GUIDs: {@code 0x0c42a10300a1b2c3} or {@code 0c42:a103:00a1:b2c3}. */
    private static final Pattern GUID = Pattern.compile(
            "(?<![0-9A-Za-z:])(?:0[xX][0-9A-Fa-f]{16}|[0-9A-Fa-f]{4}(?::[0-9A-Fa-f]{4}){3})(?![0-9A-Za-z:])");
    /** NVIDIA board part numbers, e.g. {@code 692-2G520-0200-000}, {@code 699-2G525-0200-200}. */
    private static final Pattern PART_NUMBER = Pattern.compile(
            "(?<![0-9A-Za-z-])\\d{3}-[0-9A-Za-z]{4,5}-[0-9A-Za-z]{4}-[0-9A-Za-z]{3}(?![0-9A-Za-z-])");
    /** {@code user@host} (ssh, scp, e-mail) in command lines and free text; the host needs a letter (not {@code pkg@1.2}). */
    private static final Pattern USER_AT_HOST = Pattern.compile(
            "(?<![0-9A-Za-z._%+@-])([A-Za-z_][A-Za-z0-9._-]{0,63})@([A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?)(?![0-9A-Za-z@-])");
    /** What a pseudonym looks like: such a value is already redacted and is kept, so redacting twice changes nothing. */
    private static final Pattern PSEUDONYM = Pattern.compile(
            "(?i)(?<![0-9A-Za-z-])(?:(host|serial|cluster|uuid|user|ip|mac|guid|part)-\\d{1,9}|(?:GPU|MIG)-redacted-\\d{1,9}"
            + "|4edac7ed-?0000-?4000-?8000-?[0-9a-f]{12})(?![0-9A-Za-z-])");
    /** A trace's cluster-UUID pseudonym: UUID-shaped, so the probe still decodes it; N in hex in the last group. */
    private static final Pattern CLUSTER_PSEUDONYM = Pattern.compile("(?i)4edac7ed-?0000-?4000-?8000-?[0-9a-f]{12}");
    private static final String CLUSTER_PSEUDONYM_FORMAT = "4edac7ed-0000-4000-8000-%012x";
    /** Trace calls whose answer is the host name (the first line of the file). */
    private static final Set<String> HOSTNAME_FILES = Set.of("/proc/sys/kernel/hostname", "/etc/hostname");

    /**
     * Fields whose value has a parsed shape and holds nothing identifying (PCI addresses, compute capability); the
     * reason of a missing reading there is free text like any other and is redacted.
     */
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
    /** Per kind, how many of {@link #pseudonyms} are values that already were pseudonyms (kept, not counted). */
    private final Map<Kind, Integer> kept = new EnumMap<>(Kind.class);
    private final Set<String> assigned = new HashSet<>();
    /** Whole-word replacements, longest first once {@link #sortLiterals()} ran. */
    private final List<String[]> literals = new ArrayList<>();
    private final Set<String> literalIndex = new HashSet<>();
    /** Known host names, lower-cased: what follows one of them after a dot is its domain. */
    private final Set<String> hostLiterals = new java.util.LinkedHashSet<>();
    private static final Pattern DOMAIN_AFTER = Pattern.compile("\\.([A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*)");
    /** Literals by the first three characters, lower-cased; each list longest first. */
    private final Map<String, List<String[]>> byPrefix = new java.util.HashMap<>();

    /** Whether cluster UUIDs keep their shape (a trace: the probe decodes them) rather than becoming {@code cluster-N}. */
    private final boolean uuidShapedClusters;

    private Redactor(boolean uuidShapedClusters) {
        this.uuidShapedClusters = uuidShapedClusters;
    }

    /** The report with identifiers replaced and its {@code redaction} section filled in. */
    public static Report redact(Report report) {
        Redactor r = new Redactor(false);
        ObjectNode tree = Json.mapper().valueToTree(report);
        r.collectSnapshot(tree.path("snapshot"));
        JsonNode out = r.replaceAll(tree);
        Report red;
        try {
            red = Json.mapper().treeToValue(out, Report.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("redaction broke the report: " + e.getOriginalMessage(), e);
        }
        return red.with(red.snapshot(), red.advice(), red.checks(), r.summary(report.redaction()));
    }

    /** A redacted trace and what was replaced in it (with what an earlier redaction of it replaced). */
    public record RedactedTrace(JsonNode trace, Redaction redaction) {
    }

    /**
     * A native-call trace (its JSON: {@code format}, {@code calls}, {@code snapshot}…) with identifiers replaced, its
     * {@code redaction} member filled in. Redacting a redacted trace changes nothing.
     */
    public static RedactedTrace redactTrace(JsonNode trace) {
        if (!trace.isObject()) {
            throw new IllegalArgumentException("a trace is a JSON object");
        }
        Redactor r = new Redactor(true);
        ObjectNode tree = trace.deepCopy();
        Redaction earlier = null;
        if (tree.hasNonNull("redaction")) {
            try {
                earlier = Json.mapper().treeToValue(tree.get("redaction"), Redaction.class);
            } catch (JsonProcessingException | IllegalArgumentException e) {
                earlier = null; // an unreadable section is replaced; the values themselves are redacted below
            }
        }
        tree.remove("redaction");
        // a wheel's METADATA header is the package's public metadata (its authors' e-mail addresses and URLs are not
        // this machine's identifiers): nothing is discovered there, only identifiers found elsewhere are replaced
        Map<Integer, JsonNode> metadata = new LinkedHashMap<>();
        JsonNode callList = tree.path("calls");
        for (int i = 0; i < callList.size(); i++) {
            JsonNode c = callList.get(i);
            if (c.isObject() && c.path("call").asText("").equals("readHeaderLines") && c.has("value")) {
                metadata.put(i, ((ObjectNode) c).remove("value"));
            }
        }
        r.collectSnapshot(tree.path("snapshot"));
        for (JsonNode c : tree.path("calls")) {
            if (c.isObject()) {
                r.collectCall((ObjectNode) c);
            }
        }
        ObjectNode out = (ObjectNode) r.replaceAll(tree);
        // the function names are the replay's keys and name our own seams: never rewritten
        JsonNode before = tree.path("calls");
        JsonNode after = out.path("calls");
        for (int i = 0; i < before.size() && i < after.size(); i++) {
            for (String fixed : List.of("lib", "call")) {
                if (before.get(i).has(fixed) && after.get(i).isObject()) {
                    ((ObjectNode) after.get(i)).set(fixed, before.get(i).get(fixed));
                }
            }
        }
        metadata.forEach((i, value) -> {
            if (after.get(i) instanceof ObjectNode o) {
                o.set("value", r.knownOnly(value));
            }
        });
        Redaction summary = r.summary(earlier);
        out.set("redaction", Json.mapper().valueToTree(summary));
        return new RedactedTrace(out, summary);
    }

    /** Only identifiers already found replaced (as whole words), nothing new discovered. */
    private JsonNode knownOnly(JsonNode n) {
        if (n.isTextual()) {
            String w = words(n.asText());
            return w.equals(n.asText()) ? n : TextNode.valueOf(w);
        }
        if (n.isArray()) {
            ArrayNode a = Json.mapper().createArrayNode();
            n.forEach(c -> a.add(knownOnly(c)));
            return a;
        }
        return n;
    }

    /** Discovery by patterns, then every string rewritten (the fields were collected first). */
    private JsonNode replaceAll(ObjectNode tree) {
        scan(tree, null);
        domainsOfKnownHosts(tree, null);
        sortLiterals();
        return rewrite(tree, null);
    }

    /** Values replaced now, plus what an earlier redaction replaced (kept pseudonyms are not counted again). */
    private Redaction summary(Redaction earlier) {
        Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
        if (earlier != null && earlier.applied()) {
            earlier.kinds().forEach(k -> counts.merge(k.kind(), k.values(), Integer::sum));
        }
        pseudonyms.forEach((k, m) -> {
            int fresh = m.size() - kept.getOrDefault(k, 0);
            if (fresh > 0) {
                counts.merge(k, fresh, Integer::sum);
            }
        });
        List<Redaction.Replaced> kinds = new ArrayList<>();
        counts.forEach((k, n) -> kinds.add(new Redaction.Replaced(k, n)));
        return new Redaction(true, kinds);
    }

    // ---- discovery ----

    /** The answers of a trace's calls that hold identifiers. */
    private void collectCall(ObjectNode c) {
        String lib = c.path("lib").asText("");
        String call = c.path("call").asText("");
        JsonNode value = c.path("value");
        if (lib.equals("host") && call.equals("readLines") && HOSTNAME_FILES.contains(c.path("args").path(0).asText(""))
                && value.isArray() && value.path(0).isTextual()) {
            ((ArrayNode) value).set(0, TextNode.valueOf(hostname(value.get(0).asText())));
        } else if (lib.equals("host") && call.equals("environment") && value.isObject()) {
            hostVariables(value);
        } else if (lib.equals("nvml") && call.equals("nvmlDeviceGetSerial") && value.isTextual()) {
            c.put("value", field(Kind.SERIAL, value.asText()));
        } else if (lib.equals("nvml") && call.equals("nvmlDeviceGetUUID") && value.isTextual()) {
            c.put("value", gpuUuid(value.asText()));
        } else if (lib.equals("nvml") && call.startsWith("nvmlDeviceGetGpuFabricInfo") && value.path("clusterUuid").isTextual()) {
            ((ObjectNode) value).put("clusterUuid", clusterUuid(value.get("clusterUuid").asText()));
        }
    }

    /**
     * A cluster UUID: {@code cluster-N} in a report; in a trace a UUID-shaped pseudonym in the form it came (NVML's
     * 32 hex digits, or dashed). The all-zero UUID is kept.
     */
    private String clusterUuid(String v) {
        String hex = v.replace("-", "").toLowerCase(Locale.ROOT);
        boolean dashed = v.indexOf('-') >= 0;
        if (hex.matches("0+")) {
            return v;
        }
        if (!uuidShapedClusters) {
            return field(Kind.CLUSTER_UUID, v.toLowerCase(Locale.ROOT));
        }
        String key = !dashed && hex.length() == 32 ? hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16)
                + "-" + hex.substring(16, 20) + "-" + hex.substring(20) : v.toLowerCase(Locale.ROOT);
        String p;
        if (CLUSTER_PSEUDONYM.matcher(key).matches()) {
            p = keep(Kind.CLUSTER_UUID, key);
        } else {
            Map<String, String> m = pseudonyms.computeIfAbsent(Kind.CLUSTER_UUID, k -> new LinkedHashMap<>());
            p = m.get(key);
            if (p == null) {
                int n = m.size() + 1;
                while (assigned.contains(String.format(CLUSTER_PSEUDONYM_FORMAT, n))) {
                    n++;
                }
                p = String.format(CLUSTER_PSEUDONYM_FORMAT, n);
                m.put(key, p);
                assigned.add(p);
                assigned.add(p.replace("-", ""));
                register(Kind.CLUSTER_UUID, key, p);
                register(Kind.CLUSTER_UUID, key.replace("-", ""), p.replace("-", ""));
            }
        }
        return dashed ? p : p.replace("-", "");
    }

    private void collectSnapshot(JsonNode snap) {
        JsonNode host = snap.path("host").path("hostname");
        if (host.path("value").isTextual()) {
            String h = host.path("value").asText();
            ((ObjectNode) host).put("value", hostname(h));
        }
        for (JsonNode g : snap.path("gpus")) {
            replaceValue(g.path("serial"), v -> field(Kind.SERIAL, v));
            replaceValue(g.path("uuid"), this::gpuUuid);
            replaceValue(g.path("fabric").path("clusterUuid"), this::clusterUuid);
        }
        hostVariables(snap.path("environment"));
    }

    /** Host-valued environment variables ({@code NCCL_COMM_ID}, {@code *_ADDR}…): the host names they hold. */
    private void hostVariables(JsonNode environment) {
        environment.fields().forEachRemaining(e -> {
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
        String p = field(Kind.HOSTNAME, h.toLowerCase(Locale.ROOT));
        if (p.equalsIgnoreCase(h)) {
            return h; // already a pseudonym
        }
        int dot = h.indexOf('.');
        if (dot > 0 && !IPV4.matcher(h).matches()) {
            String shortName = h.substring(0, dot);
            String domain = h.substring(dot + 1);
            register(Kind.HOSTNAME, shortName.toLowerCase(Locale.ROOT), p);
            if (domain.contains(".")) {
                field(Kind.HOSTNAME, domain);
            }
        }
        return p;
    }

    private String gpuUuid(String v) {
        if (PSEUDONYM.matcher(v).matches()) {
            return keep(Kind.GPU_UUID, v);
        }
        String prefix = v.regionMatches(true, 0, "MIG-", 0, 4) ? "MIG" : "GPU";
        String key = v.toLowerCase(Locale.ROOT);
        String p = pseudonym(Kind.GPU_UUID, key, prefix + "-redacted-", true);
        // the same UUID as other tools print it: without the prefix, without dashes, or both
        String bare = key.substring(4);
        register(Kind.GPU_UUID, bare, p);
        register(Kind.GPU_UUID, bare.replace("-", ""), p);
        register(Kind.GPU_UUID, key.replace("-", ""), p);
        return p;
    }

    /** A value that already is a pseudonym: kept as it is, and counted under the kind its stem names. */
    private String keep(Kind fallback, String v) {
        if (assigned.contains(v)) {
            return v; // made (or kept) in this pass already
        }
        Kind kind = fallback;
        String stem = v.indexOf('-') < 0 ? "" : v.substring(0, v.indexOf('-')).toLowerCase(Locale.ROOT);
        for (Kind k : Kind.values()) {
            if (stem.equals(k.stem())) {
                kind = k;
            }
        }
        if (stem.equals("gpu") || stem.equals("mig")) {
            kind = Kind.GPU_UUID;
        }
        if (CLUSTER_PSEUDONYM.matcher(v).matches()) {
            kind = Kind.CLUSTER_UUID;
        }
        if (pseudonyms.computeIfAbsent(kind, k -> new LinkedHashMap<>()).putIfAbsent(v.toLowerCase(Locale.ROOT), v) == null) {
            kept.merge(kind, 1, Integer::sum);
        }
        assigned.add(v);
        return v;
    }

    /** A value held by a field: replaced there, and searched for everywhere when distinctive. */
    private String field(Kind kind, String v) {
        return pseudonym(kind, v, kind.stem() + "-", true);
    }

    private String pseudonym(Kind kind, String key, String stem, boolean literal) {
        if (PSEUDONYM.matcher(key).matches()) {
            return keep(kind, key);
        }
        Map<String, String> m = pseudonyms.computeIfAbsent(kind, k -> new LinkedHashMap<>());
        String p = m.get(key);
        if (p == null) {
            int n = m.size() + 1;
            while (originals.contains(stem + n) || assigned.contains(stem + n) || assigned.contains(stem.toUpperCase(Locale.ROOT) + n)) {
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
        if (kind == Kind.HOSTNAME && original.length() >= 3 && !COMMON.contains(original.toLowerCase(Locale.ROOT))) {
            hostLiterals.add(original.toLowerCase(Locale.ROOT));
        }
        if (original.length() >= 3 && literalIndex.add(original.toLowerCase(Locale.ROOT)) && !COMMON.contains(original.toLowerCase(Locale.ROOT))
                && original.chars().anyMatch(Character::isLetterOrDigit) && !original.equals(pseudonym)) {
            literals.add(new String[] {original, pseudonym});
        }
    }

    private void sortLiterals() {
        literals.sort(Comparator.comparingInt((String[] l) -> -l[0].length()));
        byPrefix.clear();
        for (String[] l : literals) {
            byPrefix.computeIfAbsent(l[0].substring(0, 3).toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(l);
        }
    }

    /** Finds pattern identifiers in every string, in document order, so numbering is stable. */
    private void scan(JsonNode n, String field) {
        if (n.isTextual()) {
            if (field == null || !ENUM_FIELDS.contains(field)) {
                String s = n.asText();
                each(s, PSEUDONYM, m -> keep(Kind.UUID, m.group()));
                patterns(s, isVersionField(field) || packageVersions(s));
            }
        } else if (n.isObject()) {
            n.fields().forEachRemaining(e -> {
                if (!STRUCTURAL.contains(e.getKey())) {
                    patterns(e.getKey(), false);
                    scan(e.getValue(), fieldName(e.getKey(), field));
                } else if (e.getValue().isObject()) {
                    e.getValue().fields().forEachRemaining(inner -> {
                        if (!inner.getKey().equals("value")) {
                            scan(inner.getValue(), inner.getKey());
                        }
                    });
                }
            });
        } else if (n.isArray()) {
            for (JsonNode c : n) {
                scan(c, field);
            }
        }
    }

    /**
     * A known host name followed by {@code .labels} ({@code bmc.node17.corp.example}) names its domain: the domain
     * is an identifier too, found wherever else it stands.
     */
    private void domainsOfKnownHosts(JsonNode n, String field) {
        if (n.isTextual()) {
            if (field != null && ENUM_FIELDS.contains(field)) {
                return;
            }
            String s = n.asText();
            String lower = s.toLowerCase(Locale.ROOT);
            for (String h : List.copyOf(hostLiterals)) {
                for (int i = lower.indexOf(h); i >= 0; i = lower.indexOf(h, i + 1)) {
                    int end = i + h.length();
                    if (i > 0 && isWord(s.charAt(i - 1)) || end >= s.length() || s.charAt(end) != '.') {
                        continue;
                    }
                    Matcher m = DOMAIN_AFTER.matcher(s).region(end, s.length());
                    if (m.lookingAt() && m.group(1).chars().anyMatch(Character::isLetter) && !isVersionField(field)) {
                        String domain = m.group(1).toLowerCase(Locale.ROOT);
                        if (domain.length() >= 3 && !COMMON.contains(domain)) {
                            String p = field(Kind.HOSTNAME, domain);
                            // where the domain ends is not known (node17.corp.example.json): its shorter runs of two
                            // or more labels are the same identifier
                            for (int dot = domain.lastIndexOf('.'); dot > 0; dot = domain.lastIndexOf('.', dot - 1)) {
                                String shorter = domain.substring(0, dot);
                                if (shorter.indexOf('.') > 0 && !assigned.contains(shorter)) {
                                    register(Kind.HOSTNAME, shorter, p);
                                }
                            }
                        }
                    }
                }
            }
        } else if (n.isObject()) {
            n.fields().forEachRemaining(e -> {
                if (!STRUCTURAL.contains(e.getKey())) {
                    domainsOfKnownHosts(e.getValue(), fieldName(e.getKey(), field));
                } else if (e.getValue().isObject()) {
                    e.getValue().fields().forEachRemaining(inner -> {
                        if (!inner.getKey().equals("value")) {
                            domainsOfKnownHosts(inner.getValue(), inner.getKey());
                        }
                    });
                }
            });
        } else if (n.isArray()) {
            for (JsonNode c : n) {
                domainsOfKnownHosts(c, field);
            }
        }
    }

    /**
     * A wheel's folder name ({@code nvidia_cudnn_cu13-9.19.0.56.dist-info}, also in paths) and its METADATA
     * {@code Version:} line hold package versions like {@code 9.19.0.56}: not IP addresses.
     */
    private static boolean packageVersions(String s) {
        return s.contains(".dist-info") || s.contains(".egg-info") || s.startsWith("Version:");
    }

    private static boolean isVersionField(String field) {
        return field != null && (field.toLowerCase(Locale.ROOT).contains("version") || field.equals("cudnn"));
    }

    /** A version reading's {@code value} is named by the field holding the reading ({@code cudnn.value} is a version). */
    private static String fieldName(String key, String parent) {
        return key.equals("value") && isVersionField(parent) ? parent : key;
    }

    // ---- replacement ----

    private JsonNode rewrite(JsonNode n, String field) {
        if (n.isTextual()) {
            if (field != null && ENUM_FIELDS.contains(field)) {
                return n;
            }
            String s = n.asText();
            String r = words(patterns(s, isVersionField(field) || packageVersions(s)));
            return r.equals(s) ? n : TextNode.valueOf(r);
        }
        if (n.isObject()) {
            ObjectNode o = Json.mapper().createObjectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (STRUCTURAL.contains(e.getKey()) && e.getValue().isObject()) {
                    ObjectNode inner = Json.mapper().createObjectNode();
                    e.getValue().fields().forEachRemaining(i -> inner.set(i.getKey(),
                            i.getKey().equals("value") ? i.getValue() : rewrite(i.getValue(), i.getKey())));
                    o.set(e.getKey(), inner);
                } else if (STRUCTURAL.contains(e.getKey())) {
                    o.set(e.getKey(), e.getValue());
                } else {
                    o.set(words(patterns(e.getKey(), false)), rewrite(e.getValue(), fieldName(e.getKey(), field)));
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
        if (colon || s.indexOf('x') >= 0 || s.indexOf('X') >= 0) {
            s = each(s, GUID, m -> field(Kind.GUID, m.group().toLowerCase(Locale.ROOT)));
        }
        if (dash) {
            s = each(s, PART_NUMBER, m -> field(Kind.PART_NUMBER, m.group().toUpperCase(Locale.ROOT)));
        }
        if (s.indexOf('@') >= 0) {
            s = each(s, USER_AT_HOST, m -> {
                String host = m.group(2);
                boolean named = host.chars().anyMatch(Character::isLetter);
                return field(Kind.USER_NAME, m.group(1)) + "@" + (named ? hostname(host) : host);
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

    /**
     * Replaces every known value in {@code s}, ignoring case, where it stands as a whole word: not inside a longer
     * run of letters and digits ({@code node01_ib0} and {@code ib.node01.example} hold {@code node01};
     * {@code node012} does not). Candidates are found by their first three characters, so the cost is linear.
     */
    private String words(String s) {
        if (byPrefix.isEmpty() || s.length() < 3) {
            return s;
        }
        StringBuilder sb = null;
        int last = 0;
        for (int i = 0; i + 3 <= s.length(); ) {
            List<String[]> cands = byPrefix.get(s.substring(i, i + 3).toLowerCase(Locale.ROOT));
            String[] hit = null;
            if (cands != null) {
                for (String[] l : cands) {
                    String from = l[0];
                    int end = i + from.length();
                    if (end <= s.length() && s.regionMatches(true, i, from, 0, from.length())
                            && !(i > 0 && isWord(s.charAt(i - 1)) && isWord(from.charAt(0)))
                            && !(end < s.length() && isWord(s.charAt(end)) && isWord(from.charAt(from.length() - 1)))) {
                        hit = l;
                        break;
                    }
                }
            }
            if (hit == null) {
                i++;
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(s.length());
            }
            sb.append(s, last, i).append(hit[1]);
            i += hit[0].length();
            last = i;
        }
        return sb == null ? s : sb.append(s, last, s.length()).toString();
    }

    private static boolean isWord(char c) {
        return Character.isLetterOrDigit(c);
    }
}
