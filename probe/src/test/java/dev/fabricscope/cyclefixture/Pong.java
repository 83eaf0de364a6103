package dev.fabricscope.cyclefixture;

/** The other half of the deliberate cycle ({@link Ping}); {@link Leaf} is outside it. */
final class Pong {

    private Pong() {
    }

    static int bounce(int n) {
        return n <= 0 ? Leaf.ZERO : Ping.bounce(n - 1);
    }
}
