package dev.fabricscope.cli.cyclefixture;

/** Test fixture for {@code NoClassCycleTest}: uses {@link Ping}, which uses it back. */
public final class Pong {
    private Pong() {
    }

    public static int hits(int n) {
        return n <= 0 ? 0 : 1 + Ping.hits(n - 1);
    }
}
