package dev.fabricscope.render.raster;

/** CSS hex colours ({@code #rgb}, {@code #rgba}, {@code #rrggbb}, {@code #rrggbbaa}) as straight (not premultiplied) ARGB. */
public final class CssColour {

    private CssColour() {
    }

    /** {@code css} as {@code 0xAARRGGBB}; anything else than a hex colour is an {@link IllegalArgumentException}. */
    public static int argb(String css) {
        if (css == null || !css.startsWith("#")) {
            throw new IllegalArgumentException("not a CSS hex colour: " + css);
        }
        String hex = css.substring(1);
        for (int i = 0; i < hex.length(); i++) {
            if (Character.digit(hex.charAt(i), 16) < 0) {
                throw new IllegalArgumentException("not a CSS hex colour: " + css);
            }
        }
        return switch (hex.length()) {
            case 3 -> 0xff000000 | twice(hex, 0) << 16 | twice(hex, 1) << 8 | twice(hex, 2);
            case 4 -> twice(hex, 3) << 24 | twice(hex, 0) << 16 | twice(hex, 1) << 8 | twice(hex, 2);
            case 6 -> 0xff000000 | Integer.parseInt(hex, 16);
            case 8 -> (int) Long.parseLong(hex.substring(6), 16) << 24 | Integer.parseInt(hex.substring(0, 6), 16);
            default -> throw new IllegalArgumentException("not a CSS hex colour: " + css);
        };
    }

    /** {@code f} of {@code #fff} is {@code ff}. */
    private static int twice(String hex, int at) {
        int v = Character.digit(hex.charAt(at), 16);
        return v << 4 | v;
    }
}
