package dev.fabricscope.cyclefixture;

/** Half of a deliberate two-class cycle, for the cycle check's own test ({@code advisor.NoClassCyclesTest}). */
final class Ping {

    private Ping() {
    }

    static int bounce(int n) {
        return n <= 0 ? 0 : Pong.bounce(n - 1);
    }
}
