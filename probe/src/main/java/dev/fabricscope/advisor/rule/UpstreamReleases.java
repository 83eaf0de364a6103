package dev.fabricscope.advisor.rule;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the cited SGLang and vLLM copies were proven to be, by content, against forks that carry upstream's main history
 * ({@code upstream-releases.tsv}), and SGLang's releases as version-bump commits on main ({@code sglang-release-bumps.tsv}).
 * A whole copy is proven by its git blob id (the stored text, typed from read_file, hashed with {@code git hash-object}, or
 * the fork's own commit); one whose length no version of its path has is proven absent; a region (a function's lines) is
 * proven where only those lines were compared. A release is proven only where its bump commit's tree holds the same text.
 */
public final class UpstreamReleases {

    static final String PROOFS = "upstream-releases.tsv";
    static final String BUMPS = "sglang-release-bumps.tsv";
    /** The forks compared against, per framework, and how far their main reaches. */
    public static final Map<String, String> FORKS = Map.of("sglang", "mmangkad-dev/sglang (all refs; main up to 2026-08-16)",
            "vllm", "mmangkad/vllm (all refs; main up to 2026-06-23)");
    /** 9c4eb4609: version.py stops naming releases; later ones are cut on release branches the fork lacks. */
    static final String SGLANG_BRANCH_CUT = "2025-12-29";

    /**
     * One proof.
     *
     * @param part     {@code whole} (the file) or the region compared
     * @param chars    the stored copy's length in characters (read_file's total_chars), or null where the fork's own commit
     * @param blob     the git blob id, or null where not computed (a copy proven absent by its length)
     * @param found    {@code main}, {@code branch} (a fork branch only), {@code absent} or {@code region}
     * @param first    the main commit (12 digits and date) that introduced the text, or null
     * @param replaced the main commit that replaced it, or null while still current (or never on main)
     * @param releases the releases whose bump commit holds the same text, oldest first
     * @param method   how it was proven
     */
    public record Proof(String framework, String repo, String commit, String path, String part, Integer chars, String blob,
                        String found, String first, String replaced, List<String> releases, String method) {

        public boolean whole() {
            return part.equals("whole");
        }

        /** The file name, e.g. {@code engine.py}. */
        public String file() {
            return path.substring(path.lastIndexOf('/') + 1);
        }

        /** Why a file has no commit date, as the listing shows it in brackets. */
        public String dateNote() {
            return switch (found) {
                case "absent" -> "not in " + FORKS.get(framework) + ": " + (method.startsWith("path:") ? "no such path"
                        : "no version of the path has its " + chars + " characters");
                case "main" -> "content on main " + day(first) + " … " + (replaced == null ? "the fork's head" : day(replaced))
                        + ", blob " + blob.substring(0, 8);
                case "branch" -> "content only on a fork branch since " + day(first) + ", never on main";
                default -> "region proof only";
            };
        }

        /** {@code 0.4.3 … 0.4.10.post1}, or {@code no release}. */
        public String releaseText() {
            if (!releases.isEmpty()) {
                return releases.size() == 1 ? "release " + releases.get(0)
                        : "releases " + releases.get(0) + " … " + releases.get(releases.size() - 1);
            }
            if (!framework.equals("sglang")) {
                return "releases unknown";
            }
            boolean beforeCut = replaced != null && replaced.split(" ")[1].compareTo(SGLANG_BRANCH_CUT) < 0;
            return beforeCut ? "no release (no version bump holds it)"
                    : "no release up to " + SGLANG_BUMPS.get(SGLANG_BUMPS.size() - 1).release()
                    + "; later ones are cut on branches the fork lacks";
        }

        private static String day(String commitAndDate) {
            String[] p = commitAndDate.split(" ");
            return p[1].substring(0, 10) + " (" + p[0].substring(0, 8) + ")";
        }
    }

    /** One SGLang release and the main commit whose version.py first names it. */
    public record Bump(String release, String commit, String date) {
    }

    private static final List<Proof> ALL = readProofs();
    private static final List<Bump> SGLANG_BUMPS = readBumps();

    private UpstreamReleases() {
    }

    public static List<Proof> all() {
        return ALL;
    }

    public static List<Bump> sglangBumps() {
        return SGLANG_BUMPS;
    }

    /** The proofs for one cited file (repository, commit, path): the whole-file one first, then regions. */
    public static List<Proof> of(String repo, String commit, String path) {
        return ALL.stream().filter(p -> p.repo().equals(repo) && p.commit().equals(commit) && p.path().equals(path))
                .sorted((a, b) -> Boolean.compare(b.whole(), a.whole())).toList();
    }

    /** The whole-file proof of a cited file, if one was made. */
    public static Optional<Proof> whole(String repo, String commit, String path) {
        return of(repo, commit, path).stream().filter(Proof::whole).findFirst();
    }

    /** The files, each undated one with its proof's date note (where it lies in the fork, or that it is not there). */
    public static List<Pedigree.File> noted(List<Pedigree.File> files) {
        return files.stream().map(f -> f.date() != null || f.commit() == null ? f : whole(f.repo(), f.commit(), f.path())
                .map(p -> new Pedigree.File(f.repo(), f.commit(), f.path(), null, p.dateNote())).orElse(f)).toList();
    }

    /**
     * The releases every file of a set is proven in (whole files only), or empty where one file is not: a set's range may
     * only rest on this.
     */
    public static List<String> provenForEvery(List<Pedigree.File> files) {
        Set<String> common = null;
        for (Pedigree.File f : files) {
            Optional<Proof> p = f.commit() == null ? Optional.empty() : whole(f.repo(), f.commit(), f.path());
            if (p.isEmpty()) {
                return List.of();
            }
            if (common == null) {
                common = new LinkedHashSet<>(p.get().releases());
            } else {
                common.retainAll(p.get().releases());
            }
        }
        return common == null ? List.of() : List.copyOf(common);
    }

    /** The bump that follows {@code release} in SGLang's history, or null for the last one (or an unknown release). */
    public static String nextSglangRelease(String release) {
        for (int i = 0; i < SGLANG_BUMPS.size() - 1; i++) {
            if (SGLANG_BUMPS.get(i).release().equals(release)) {
                return SGLANG_BUMPS.get(i + 1).release();
            }
        }
        return null;
    }

    /**
     * What was proven of a set's files, for its release note: the copies not in the fork, each copy on main with its span
     * and releases, and each region with its releases.
     */
    public static String summary(String framework, List<Pedigree.File> files) {
        List<String> absent = new ArrayList<>();
        List<String> said = new ArrayList<>();
        for (Pedigree.File f : files) {
            if (f.commit() == null) {
                continue;
            }
            for (Proof p : of(f.repo(), f.commit(), f.path())) {
                String name = p.file() + "@" + p.commit().substring(0, 8);
                switch (p.found()) {
                    case "absent" -> absent.add(name);
                    case "main", "branch" -> said.add(name + " is " + p.dateNote() + ", in " + p.releaseText());
                    default -> said.add(name + "'s " + p.part() + " are those of " + p.releaseText() + " (main " + p.first().split(" ")[1]
                            .substring(0, 10) + " … " + p.replaced().split(" ")[1].substring(0, 10) + "; those lines only, not the file)");
                }
            }
        }
        List<String> out = new ArrayList<>(said);
        if (!absent.isEmpty()) {
            out.add(String.join(", ", absent) + ": no version of their paths in " + FORKS.get(framework) + " has their length");
        }
        return String.join("; ", out);
    }

    /**
     * What is proven for one release across a framework's sets: the regions (and whole files) it holds, with the set that
     * follows each; empty where nothing is.
     */
    public static String provenFor(List<? extends RuleVersion> versions, String release) {
        List<String> out = new ArrayList<>();
        for (Proof p : ALL) {
            if (!p.releases().contains(release)) {
                continue;
            }
            List<String> sets = versions.stream().filter(v -> v.pedigree().files().stream().anyMatch(f -> p.repo().equals(f.repo())
                    && p.commit().equals(f.commit()) && p.path().equals(f.path()))).map(RuleVersion::id).toList();
            if (!sets.isEmpty()) {
                out.add(p.file() + (p.whole() ? "" : "'s " + p.part()) + " as set " + String.join(", ", sets) + " follows it ("
                        + p.file() + "@" + p.commit().substring(0, 8) + ", " + p.releaseText() + ")");
            }
        }
        return out.isEmpty() ? "" : "release " + release + " is proven to hold " + String.join("; ", out)
                + "; its other files are not proven, so no set covers the release";
    }

    private static List<String[]> rows(String resource, int columns) {
        try (InputStream in = UpstreamReleases.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<String[]> out = new ArrayList<>();
            boolean header = true;
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] c = line.split("\t", -1);
                if (c.length != columns) {
                    throw new IllegalStateException(resource + ": " + c.length + " columns, not " + columns + ": " + line);
                }
                if (!header) {
                    out.add(c);
                }
                header = false;
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String dash(String s) {
        return s.equals("-") ? null : s;
    }

    private static List<Proof> readProofs() {
        return rows(PROOFS, 12).stream().map(c -> new Proof(c[0], c[1], c[2], c[3], c[4],
                dash(c[5]) == null ? null : Integer.valueOf(c[5]), dash(c[6]), c[7], dash(c[8]), dash(c[9]),
                dash(c[10]) == null ? List.of() : Arrays.asList(c[10].split(" ")), c[11])).toList();
    }

    private static List<Bump> readBumps() {
        return rows(BUMPS, 3).stream().map(c -> new Bump(c[0], c[1], c[2])).toList();
    }
}
