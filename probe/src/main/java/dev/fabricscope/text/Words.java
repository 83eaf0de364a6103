package dev.fabricscope.text;

/** Small wording helpers shared by every text output. */
public final class Words {

    private Words() {
    }

    /** {@code 1 GPU}, {@code 2 GPUs}. */
    public static String plural(long n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }
}
