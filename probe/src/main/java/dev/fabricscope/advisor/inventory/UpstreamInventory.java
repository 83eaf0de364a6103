package dev.fabricscope.advisor.inventory;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every upstream branch of the files the advisor's rules cite (a {@code raise}, an assertion, a warning that falls back,
 * a silent disable), each mapped to the rule that models it or marked not modelled with the reason (issue 23, item 3).
 * The data is {@code upstream-inventory.json} next to this class; docs/upstream-coverage.md is rendered from it.
 *
 * @param pins    the commits the files were read at
 * @param entries the branches, in file and line order
 * @param pending cited files whose branches are not enumerated yet
 */
public record UpstreamInventory(List<Pin> pins, List<InventoryEntry> entries, List<PendingFile> pending) {

    static final String RESOURCE = "upstream-inventory.json";
    static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");

    private static final class Bundled {
        static final UpstreamInventory INSTANCE = loadBundled();
    }

    public UpstreamInventory {
        pins = pins == null ? List.of() : List.copyOf(pins);
        entries = entries == null ? List.of() : List.copyOf(entries);
        pending = pending == null ? List.of() : List.copyOf(pending);
    }

    /** The inventory shipped with the advisor (read once). */
    public static UpstreamInventory bundled() {
        return Bundled.INSTANCE;
    }

    private static UpstreamInventory loadBundled() {
        try (InputStream in = UpstreamInventory.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
            }
            UpstreamInventory inv = read(in);
            List<String> problems = inv.problems();
            if (!problems.isEmpty()) {
                throw new IllegalStateException(RESOURCE + " is invalid:\n" + String.join("\n", problems));
            }
            return inv;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** Parses an inventory; unknown members are errors (a misspelt {@code appliesWhen} key must not pass silently). */
    public static UpstreamInventory read(InputStream in) throws IOException {
        return new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .readValue(in, UpstreamInventory.class);
    }

    /**
     * The branches the advisor does not model that could apply when advising {@code framework} on this machine and
     * deployment ({@link AppliesWhen}); the advisor shows each as {@code unknown} ("not modelled: …"), never as ok.
     */
    public List<InventoryEntry> notModelledApplicable(MachineFacts facts, Deployment deployment, String framework) {
        List<InventoryEntry> out = new ArrayList<>();
        for (InventoryEntry e : entries) {
            if (e.modelled()) {
                continue;
            }
            if (e.appliesWhen().reached(e.framework()).contains(framework) && e.appliesWhen().couldApply(facts, deployment, framework)) {
                out.add(e);
            }
        }
        return out;
    }

    /** The same for the deployment the advisor resolved (TP, nodes and DCP as it evaluates them). */
    public List<InventoryEntry> notModelledApplicable(MachineFacts facts, EffectiveDeployment resolved, String framework) {
        Deployment d = new Deployment(resolved.tp(), resolved.nodes(), resolved.dcp(), resolved.model(), resolved.tokens(),
                resolved.flags(), resolved.env());
        return notModelledApplicable(facts, d, framework);
    }

    /**
     * The {@code unknown} verdicts of the not-modelled branches that could apply when advising {@code framework} here:
     * one per branch, knob {@code upstream:<id>} with the branch's kind as its value, citing the branch's file and line at the pinned commit.
     */
    public List<Verdict> unknownVerdicts(MachineFacts facts, EffectiveDeployment resolved, String framework, String version) {
        List<Verdict> out = new ArrayList<>();
        for (InventoryEntry b : notModelledApplicable(facts, resolved, framework)) {
            out.add(new Verdict(framework, "upstream:" + b.id(), b.kind().json(), false, Outcome.UNKNOWN, null, null,
                    null, NOT_MODELLED_WHEN, b.notModelledWhy(), null, b.source(), version));
        }
        return out;
    }

    /** The {@code when} of those verdicts. */
    public static final String NOT_MODELLED_WHEN = "an upstream branch the advisor does not model (docs/upstream-coverage.md)";

    /** {@code repo path} of every file with an entry. */
    public Set<String> files() {
        Set<String> out = new LinkedHashSet<>();
        entries.forEach(e -> out.add(e.repo() + " " + e.path()));
        return out;
    }

    /** What is wrong with the data, one line per problem (empty when it is sound). */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        Set<String> pinned = new HashSet<>();
        for (Pin p : pins) {
            if (p.commit() == null || !COMMIT.matcher(p.commit()).matches()) {
                out.add("pin " + p.repo() + ": commit '" + p.commit() + "' is not 40 hex digits");
            }
            if (p.date() == null && p.dateNote() == null) {
                out.add("pin " + p.repo() + "@" + p.commit() + ": neither a date nor why it is missing");
            }
            pinned.add(p.repo() + "@" + p.commit());
        }
        Set<String> ids = new HashSet<>();
        for (InventoryEntry e : entries) {
            String at = "entry " + e.id() + ": ";
            if (e.id() == null || !ids.add(e.id())) {
                out.add(at + "missing or repeated id");
            }
            if (!AppliesWhen.FRAMEWORKS.contains(e.framework())) {
                out.add(at + "framework '" + e.framework() + "' is not one of " + AppliesWhen.FRAMEWORKS);
            }
            if (e.commit() == null || !COMMIT.matcher(e.commit()).matches()) {
                out.add(at + "commit '" + e.commit() + "' is not 40 hex digits");
            } else if (!pinned.contains(e.repo() + "@" + e.commit())) {
                out.add(at + e.repo() + "@" + e.commit() + " is not among the pins");
            }
            if (e.path() == null || e.path().isBlank() || e.line() < 1) {
                out.add(at + "needs a path and a line");
            }
            if (e.kind() == null || e.condition() == null || e.message() == null) {
                out.add(at + "needs a kind, a condition and a message (empty where upstream prints none)");
            }
            if ((e.modelledBy() == null) == (e.notModelled() == null)) {
                out.add(at + "needs exactly one of modelledBy and notModelled");
            }
            if (e.modelledBy() != null && !e.modelledBy().matches("[A-Z]\\w*\\.\\w+")) {
                out.add(at + "modelledBy '" + e.modelledBy() + "' is not SimpleClassName.MEMBER");
            }
            if (e.notModelled() != null && e.appliesWhen() == null) {
                out.add(at + "a not-modelled entry needs appliesWhen");
            }
            if (e.appliesWhen() != null) {
                e.appliesWhen().problems().forEach(p -> out.add(at + p));
            }
        }
        for (PendingFile p : pending) {
            if (p.reason() == null || p.reason().isBlank()) {
                out.add("pending " + p.repo() + " " + p.path() + ": needs a reason");
            }
            if (files().contains(p.repo() + " " + p.path())) {
                out.add("pending " + p.repo() + " " + p.path() + ": has entries, so it is not pending");
            }
        }
        return out;
    }
}
