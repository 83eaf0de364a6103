package dev.fabricscope.render.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fabricscope.render.fabric.FabricGraph.Edge;
import dev.fabricscope.render.fabric.FabricGraph.EdgeKind;
import dev.fabricscope.render.fabric.FabricGraph.Node;
import dev.fabricscope.render.fabric.FabricGraph.NodeKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The counts the ELK comparison reports, on small drawings whose answers are known. */
class DrawingMetricsTest {

    private static Node box(String id, double x, double y, double w, String title) {
        return new Node(id, NodeKind.NVSWITCH, title, "", "", x, y, w, 44, false, List.of());
    }

    private static Edge line(String id, String from, String to, double x1, double y1, double x2, double y2, String label) {
        return new Edge(id, EdgeKind.NVLINK, from, to, 1, 0, label, x1, y1, (x1 + x2) / 2, (y1 + y2) / 2, x2, y2,
                (x1 + x2) / 2, (y1 + y2) / 2, List.of());
    }

    private static FabricGraph graph(List<Node> nodes, List<Edge> edges) {
        return new FabricGraph("m", nodes, edges, List.of(), List.of(), 800, 600, 560, List.of());
    }

    @Test
    void twoLinksThatCrossAwayFromTheirBoxesCountOnceAndMeetingAtABoxDoesNot() {
        List<Node> n = List.of(box("a", 0, 0, 60, "A"), box("b", 200, 0, 60, "B"), box("c", 0, 300, 60, "C"), box("d", 200, 300, 60, "D"));
        // a-d and b-c cross in the middle; a-c and a-d meet only at a
        List<Edge> e = List.of(line("ad", "a", "d", 30, 44, 230, 300, ""), line("bc", "b", "c", 230, 44, 30, 300, ""),
                line("ac", "a", "c", 30, 44, 30, 300, ""));
        DrawingMetrics m = DrawingMetrics.of(graph(n, e));
        assertEquals(1, m.crossings(), m.problems().toString());
        assertEquals(0, m.bends());
        assertEquals(0, m.edgesOverBoxes());
    }

    @Test
    void anOrthogonalChainCountsItsCornersAndABoxInTheWay() {
        List<Node> n = List.of(box("a", 0, 0, 60, "A"), box("b", 300, 300, 60, "B"), box("x", 120, 100, 60, "X"));
        // a down, right through x, down to b: 2 corners, over x
        List<Edge> e = List.of(line("ab", "a", "b", 30, 44, 30, 122, ""), line("ab#1", "a", "b", 30, 122, 330, 122, ""),
                line("ab#2", "a", "b", 330, 122, 330, 300, ""));
        DrawingMetrics m = DrawingMetrics.of(graph(n, e));
        assertEquals(1, m.connections());
        assertEquals(2, m.bends());
        assertEquals(1, m.edgesOverBoxes(), m.problems().toString());
    }

    @Test
    void overlappingBoxesLinksOnEachOtherAndTextWiderThanItsBoxAreCounted() {
        List<Node> n = List.of(box("a", 0, 0, 60, "A"), box("b", 40, 20, 60, "a title far too long for 60 px"), box("c", 0, 300, 60, "C"));
        List<Edge> e = List.of(line("1", "a", "c", 10, 44, 10, 300, ""), line("2", "b", "c", 10, 100, 10, 300, ""));
        DrawingMetrics m = DrawingMetrics.of(graph(n, e));
        assertEquals(1, m.boxOverlaps(), m.problems().toString());
        assertEquals(1, m.edgeOverlaps(), m.problems().toString());
        assertEquals(1, m.labelsCut(), m.problems().toString());
    }
}
