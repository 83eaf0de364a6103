package dev.fabricscope.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** No class of the advisor depends, through other classes, on itself (issue 16: the Eval → Versions → *Rules → Eval cycle). */
class NoClassCyclesTest {

    private static Path root(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void advisorHasNoClassCycles() throws Exception {
        Map<String, Set<String>> graph = ClassCycles.dependencies(root(Advisor.class), "dev.fabricscope.advisor");
        assertTrue(graph.containsKey("Advisor") && graph.containsKey("SglangRules") && graph.get("Advisor").contains("FrameworkRegistry"),
                "the advisor's classes were not read: " + graph.keySet());
        assertEquals(List.of(), ClassCycles.find(root(Advisor.class), "dev.fabricscope.advisor"), "class cycles in dev.fabricscope.advisor");
    }

    @Test
    void theCheckFindsACycle() throws Exception {
        Path testClasses = root(NoClassCyclesTest.class);
        assertEquals(List.of(Set.of("Ping", "Pong")), ClassCycles.find(testClasses, "dev.fabricscope.cyclefixture"));
        assertEquals(Set.of("Leaf", "Ping"), ClassCycles.dependencies(testClasses, "dev.fabricscope.cyclefixture").get("Pong"));
    }

    @Test
    void nestedClassesCountAsTheirTopLevelClass() throws Exception {
        Map<String, Set<String>> graph = ClassCycles.dependencies(root(Advisor.class), "dev.fabricscope.advisor");
        assertTrue(graph.keySet().stream().noneMatch(k -> k.contains("$")), graph.keySet()::toString);
        assertTrue(graph.get("SglangFusionVerdict").contains("SglangFusionPipeline"),
                "SglangFusionVerdict names the nested SglangFusionPipeline$Pipeline, counted as SglangFusionPipeline");
    }

    @Test
    void aLongerCycleIsOneComponent() {
        Map<String, Set<String>> graph = Map.of("A", Set.of("B"), "B", Set.of("C"), "C", Set.of("A"), "D", Set.of("A"));
        assertEquals(List.of(Set.of("A", "B", "C")), ClassCycles.stronglyConnected(graph).stream().filter(c -> c.size() > 1).toList());
    }
}
