package dev.fabricscope.text;

/** Small wording helpers shared by every text output. */
public final class Words {

    private Words() {
    }

    /** {@code 1 GPU}, {@code 2 GPUs}. */
    public static String plural(long n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    /** {@code 1 tray}, {@code 1,152 GPUs}: with thousands grouped, for counts that can run into thousands. */
    public static String grouped(long n, String word) {
        return String.format(java.util.Locale.ROOT, "%,d %s%s", n, word, n == 1 ? "" : "s");
    }
}
