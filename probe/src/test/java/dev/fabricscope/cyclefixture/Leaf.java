package dev.fabricscope.cyclefixture;

/** Referenced by the cycle, referencing nothing back. */
final class Leaf {

    static final Integer ZERO = Integer.valueOf(0);

    private Leaf() {
    }
}
