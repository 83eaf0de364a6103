package dev.fabricscope.report;

import dev.fabricscope.model.MachineSnapshot;

/** The fabric graph as inline SVG for the HTML report. */
final class FabricDrawing {

    private FabricDrawing() {
    }

    /** The SVG element (no XML prolog), or null when no drawing is available. */
    static String svg(MachineSnapshot s) {
        return null;
    }
}
