package dev.fabricscope.app.viewmodel;

import dev.fabricscope.advisor.Recommendation;
import dev.fabricscope.advisor.Verdict;
import dev.fabricscope.model.MachineSnapshot;
import java.util.List;
import java.util.Map;

/**
 * What the Advisor tab needs from the backend advisor. The GUI talks to the advisor only through this seam, so
 * view-model tests can use a fake and the advisor's own API can change without touching views.
 */
public interface AdvisorPort {

    /**
     * A planned deployment, as the {@code fabricscope advise} options spell it; a null number is not given (the
     * advisor derives it from the machine and says so).
     */
    record Deployment(List<String> frameworks, Integer tp, Integer nodes, Integer dcp, String model, Integer tokens,
                      Map<String, String> flags, Map<String, String> env, Map<String, String> assume) {
        public Deployment {
            frameworks = List.copyOf(frameworks);
            flags = Map.copyOf(flags);
            env = Map.copyOf(env);
            assume = Map.copyOf(assume);
        }
    }

    /**
     * The advisor's answer: verdicts, one recommendation per framework, the effective machine facts and deployment
     * (one line each), the rule-set versions applied, and why no verdict could be given (or null).
     */
    record Advice(List<Verdict> verdicts, List<Recommendation> recommendations, Map<String, String> machineFacts,
                  List<String> deploymentNotes, Map<String, String> versions, String blocked) {
        public Advice {
            verdicts = List.copyOf(verdicts);
            recommendations = List.copyOf(recommendations);
            machineFacts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(machineFacts));
            deploymentNotes = List.copyOf(deploymentNotes);
            versions = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(versions));
        }
    }

    /** Null when the advisor can be used; otherwise one line saying why not. */
    String unavailableReason();

    /** Framework names the advisor knows, e.g. sglang, vllm, flashinfer, nccl. */
    List<String> frameworks();

    /** Valid {@code --assume} keys, for the what-if editor's hint. */
    List<String> assumeKeys();

    /** Advises; a bad input (unknown flag, env or assume key) throws {@link IllegalArgumentException} with one line. */
    Advice advise(MachineSnapshot machine, Deployment deployment);

    /** The port used while the advisor is not part of the build: it says so and never invents a verdict. */
    static AdvisorPort notInThisBuild() {
        return new AdvisorPort() {
            @Override
            public String unavailableReason() {
                return "The backend advisor (dev.fabricscope.advisor.Advisor) is not part of this build yet.";
            }

            @Override
            public List<String> frameworks() {
                return List.of("sglang", "vllm", "flashinfer", "nccl");
            }

            @Override
            public List<String> assumeKeys() {
                return List.of();
            }

            @Override
            public Advice advise(MachineSnapshot machine, Deployment deployment) {
                throw new IllegalStateException(unavailableReason());
            }
        };
    }
}
