package dev.fabricscope.render.fabric;

/**
 * Font sizes of the fabric drawing in drawing pixels, shared by {@link FabricSvg} and the desktop app's canvas so that
 * both draw the same text. The views never open a drawing below {@link #READABLE_ZOOM}, so that the smallest text,
 * {@link #SMALLEST}, is at least 9 px on screen (issue 26).
 */
public final class FabricFonts {

    public static final double CAPTION = 14;
    public static final double NOTE = 11.5;
    public static final double GROUP_TITLE = 11;
    public static final double GPU_TITLE = 13;
    public static final double GPU_SUBTITLE = 11;
    public static final double GPU_CAPTION = 10;
    public static final double BOX_TITLE = 12.5;
    public static final double BOX_SUBTITLE = 10;
    public static final double PCIE_SWITCH = 10.5;
    public static final double NIC_TITLE = 11;
    public static final double NIC_LINE = 10;
    public static final double EDGE_LABEL = 10;
    public static final double LEGEND = 10.5;

    /** The smallest of the sizes above. */
    public static final double SMALLEST = 10;

    /** The least zoom a view opens a drawing at: {@link #SMALLEST} at this zoom is 9 px. */
    public static final double READABLE_ZOOM = 9 / SMALLEST;

    private FabricFonts() {
    }
}
