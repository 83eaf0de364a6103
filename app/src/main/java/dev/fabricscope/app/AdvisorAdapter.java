package dev.fabricscope.app;

import dev.fabricscope.advisor.AdviceResult;
import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.AdvisorInputException;
import dev.fabricscope.advisor.FactKey;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.app.viewmodel.AdvisorPort;
import dev.fabricscope.model.MachineSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Advisor tab's access to {@link Advisor} (pure: safe to call on every change of the deployment panel). */
final class AdvisorAdapter implements AdvisorPort {

    @Override
    public String unavailableReason() {
        return null;
    }

    @Override
    public List<String> frameworks() {
        return Options.FRAMEWORKS;
    }

    @Override
    public List<String> assumeKeys() {
        return FactKey.keys();
    }

    /** The deployment panel's deployment as the advisor takes it. */
    static dev.fabricscope.advisor.Deployment deployment(AdvisorPort.Deployment d) {
        return new dev.fabricscope.advisor.Deployment(d.tp(), d.nodes(), d.dcp(), d.model(), d.tokens(), d.flags(), d.env());
    }

    /** The panel's frameworks (none named when all are) and what-if facts, with the newest rule sets. */
    static Options options(AdvisorPort.Deployment d) {
        return new Options(d.frameworks().size() == Options.FRAMEWORKS.size() ? List.of() : d.frameworks(), Map.of(), d.assume());
    }

    @Override
    public Advice advise(MachineSnapshot machine, AdvisorPort.Deployment d) {
        dev.fabricscope.advisor.Deployment dep = deployment(d);
        Options options = options(d);
        AdviceResult r;
        try {
            r = Advisor.advise(machine, dep, options);
        } catch (AdvisorInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Map<String, String> facts = new LinkedHashMap<>();
        r.machine().values().forEach((k, v) -> facts.put(k, v == null ? "unknown" : String.valueOf(v)));
        List<String> notes = new ArrayList<>();
        if (r.deployment() != null) {
            notes.addAll(r.deployment().notes().values());
        }
        return new Advice(r.verdicts(), r.recommendations(), facts, notes, r.versions(), r.blocked());
    }
}
