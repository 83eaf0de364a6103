package dev.fabricscope.render.fabric;

/**
 * Colours of the fabric drawing, shared by the SVG writer and the desktop app so that both look the same.
 * Values are CSS hex colours.
 */
public record FabricPalette(String background, String text, String muted, String note,
                            String gpuFill, String gpuStroke, String warnStroke,
                            String switchFill, String switchStroke,
                            String pcieSwitchFill, String pcieSwitchStroke,
                            String cpuFill, String cpuStroke,
                            String nvlink, String pcie, String cpuLink,
                            String groupStroke, String groupFill,
                            String labelFill, String labelStroke, String selection,
                            String nicFill, String nicStroke, String c2c) {

    public static final FabricPalette LIGHT = new FabricPalette("#ffffff", "#1f2328", "#57606a", "#9a6700",
            "#f1f8e6", "#5e9400", "#d1242f",
            "#eaf1fd", "#3a6fd8",
            "#f6f8fa", "#8c959f",
            "#f5f0fd", "#8250df",
            "#5e9400", "#8c959f", "#8250df",
            "#0969da", "#0969da0d",
            "#ffffff", "#d0d7de", "#fb8c00",
            "#e6f6f4", "#1b7c83", "#bf3989");

    public static final FabricPalette DARK = new FabricPalette("#0d1117", "#e6edf3", "#8b949e", "#d29922",
            "#17230c", "#86c232", "#f85149",
            "#13213a", "#6c9cf0",
            "#161b22", "#6e7681",
            "#221a33", "#a371f7",
            "#86c232", "#6e7681", "#a371f7",
            "#58a6ff", "#58a6ff12",
            "#0d1117", "#30363d", "#ffa657",
            "#0f2624", "#39c5bb", "#db61a2");

    public static FabricPalette of(boolean dark) {
        return dark ? DARK : LIGHT;
    }
}
