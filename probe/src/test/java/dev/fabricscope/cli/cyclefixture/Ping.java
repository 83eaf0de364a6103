package dev.fabricscope.cli.cyclefixture;

/** Test fixture for {@code NoClassCycleTest}: uses {@link Pong}, which uses it back. */
public final class Ping {
    private Ping() {
    }

    public static int hits(int n) {
        return n <= 0 ? 0 : 1 + Pong.hits(n - 1);
    }
}
