package dev.fabricscope.text;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * Every character a command prints, and every text written to a stream ({@code --out -}, a terminal, a device, a
 * FIFO: {@code dev.fabricscope.io.OutputFile}), passes here: what {@link Escape#invisible} names (ESC, BEL, CR, C1 controls,
 * DEL, bidi overrides, …) is written as the visible {@code \}{@code uXXXX}, so no file, value or argument can move
 * the cursor, set the title, clear the screen or reorder text. Newlines and tabs pass; valid surrogate pairs pass;
 * the zero-width space Markdown puts after {@code @} to defuse mentions passes. Inside JSON strings the escape is the
 * same character, so JSON output stays equivalent.
 */
public final class SafeTerminalWriter extends Writer {

    private final Writer out;
    private char pendingHigh;
    private char last;

    /** {@code out} behind the sanitiser; {@link #close} closes it. */
    public SafeTerminalWriter(Writer out) {
        this.out = out;
    }

    /** {@code w} wrapped (once) so that nothing invisible reaches the terminal. */
    public static PrintWriter wrap(PrintWriter w) {
        if (w instanceof Safe) {
            return w;
        }
        return new Safe(new SafeTerminalWriter(w));
    }

    /** Marks a wrapped writer. */
    private static final class Safe extends PrintWriter {
        Safe(Writer w) {
            super(w, true);
        }
    }

    @Override
    public void write(char[] buf, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            put(buf[i]);
        }
    }

    private void put(char c) throws IOException {
        if (pendingHigh != 0) {
            char h = pendingHigh;
            pendingHigh = 0;
            if (Character.isLowSurrogate(c)) {
                out.write(h);
                out.write(c);
                last = c;
                return;
            }
            out.write(Escape.escaped(h));
        }
        if (Character.isHighSurrogate(c)) {
            pendingHigh = c;
            return;
        }
        if (c == '\n' || c == '\t' || c == '\u200b' && last == '@' || !Escape.invisible(c)) {
            out.write(c);
        } else {
            out.write(Escape.escaped(c));
        }
        last = c;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (pendingHigh != 0) {
            out.write(Escape.escaped(pendingHigh));
            pendingHigh = 0;
        }
        out.close();
    }
}
