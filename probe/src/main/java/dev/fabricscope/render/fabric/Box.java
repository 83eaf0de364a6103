package dev.fabricscope.render.fabric;

import dev.fabricscope.render.fabric.FabricGraph.Detail;
import dev.fabricscope.render.fabric.FabricGraph.NodeKind;
import java.util.ArrayList;
import java.util.List;


/** A node of the drawing, mutable while it is laid out ({@link FabricLayout}) and worded ({@link FabricBoxes}). */
final class Box {
    /** Box sizes by kind, in pixels. */
    static final double GPU_W = 136;
    static final double GPU_H = 76;
    static final double SW_W = 128;
    static final double SW_H = 44;
    static final double PSW_W = 116;
    static final double PSW_H = 30;
    static final double CPU_H = 48;
    static final double CPU_ONLY_W = 112;
    static final double NIC_W = 76;
    static final double NIC_H = 44;

    final String id;
    final NodeKind kind;
    String title;
    String subtitle = "";
    String caption = "";
    double x;
    double y;
    double w;
    double h;
    boolean warning;
    List<Detail> details = new ArrayList<>();

    Box(String id, NodeKind kind, String title, double w, double h) {
        this.id = id;
        this.kind = kind;
        this.title = title;
        this.w = w;
        this.h = h;
    }

    double cx() {
        return x + w / 2;
    }

    /** The CPU/NUMA node a box stands for: a NUMA id, -1 for the NUMA nodes without GPUs, null for the host as a whole. */
    record CpuKey(Integer numa) {
    }
}
