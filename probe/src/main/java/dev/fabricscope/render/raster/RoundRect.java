package dev.fabricscope.render.raster;

/**
 * A rectangle with rounded corners, in pixels: the signed distance of a point to its outline (negative inside), and
 * how far along the outline the nearest point lies, clockwise from the start of the top edge, as an SVG {@code <rect>}
 * path runs (where a dash pattern starts).
 *
 * @param r the corners' radius, at most half the shorter side
 */
record RoundRect(double x, double y, double w, double h, double r) {

    RoundRect {
        r = Math.max(0, Math.min(r, Math.min(w, h) / 2));
    }

    double distance(double px, double py) {
        double qx = Math.abs(px - (x + w / 2)) - w / 2 + r;
        double qy = Math.abs(py - (y + h / 2)) - h / 2 + r;
        double ox = Math.max(qx, 0);
        double oy = Math.max(qy, 0);
        double outside = Math.sqrt(ox * ox + oy * oy);
        return outside + Math.min(Math.max(qx, qy), 0) - r;
    }

    /** Length of the whole outline. */
    double perimeter() {
        return 2 * (w - 2 * r) + 2 * (h - 2 * r) + 2 * Math.PI * r;
    }

    /** Position along the outline of the outline's point nearest to ({@code px}, {@code py}). */
    double along(double px, double py) {
        double left = x + r;
        double right = x + w - r;
        double top = y + r;
        double bottom = y + h - r;
        double across = right - left;
        double down = bottom - top;
        double arc = Math.PI / 2 * r;
        boolean inX = px >= left && px <= right;
        boolean inY = py >= top && py <= bottom;
        if (inX && inY) { // inside the straight parts' rectangle: the nearest side
            double toTop = py - y;
            double toRight = x + w - px;
            double toBottom = y + h - py;
            double toLeft = px - x;
            double least = Math.min(Math.min(toTop, toRight), Math.min(toBottom, toLeft));
            if (least == toTop) {
                return px - left;
            }
            if (least == toRight) {
                return across + arc + (py - top);
            }
            if (least == toBottom) {
                return across + 2 * arc + down + (right - px);
            }
            return 2 * across + 3 * arc + down + (bottom - py);
        }
        if (inX) {
            return py < top ? px - left : across + 2 * arc + down + (right - px);
        }
        if (inY) {
            return px > right ? across + arc + (py - top) : 2 * across + 3 * arc + down + (bottom - py);
        }
        if (px > right && py < top) {
            return across + (Math.atan2(py - top, px - right) + Math.PI / 2) * r;
        }
        if (px > right) {
            return across + arc + down + Math.atan2(py - bottom, px - right) * r;
        }
        if (py > bottom) {
            return 2 * across + 2 * arc + down + (Math.atan2(py - bottom, px - left) - Math.PI / 2) * r;
        }
        return 2 * across + 3 * arc + 2 * down + (Math.atan2(py - top, px - left) + Math.PI) * r;
    }
}
