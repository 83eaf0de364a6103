package dev.fabricscope.render.raster;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A PNG file (ISO/IEC 15948, PNG 2nd edition) of 8-bit RGBA, written row by row: the signature, IHDR, the rows
 * deflated into IDAT chunks, IEND; each chunk with its CRC-32. Every row has filter type None: on flat-coloured
 * drawings deflate finds the repeats itself (pixel to pixel, and row to row while a row is under its 32 KiB window),
 * and the specification's per-row heuristic (§12.8, None/Sub/Up) made the 8-rack cluster drawing 19 % larger and
 * its encoding 65 % slower (1.71 against 1.44 MB; docs/benchmarks.md).
 */
public final class PngEncoder {

    static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    /** Largest IDAT chunk written. */
    static final int CHUNK = 1 << 16;

    private final int width;
    private final int height;
    private final int stride;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
    private final byte[] chunk = new byte[CHUNK];
    private int chunkFill;
    /** A row as it goes to deflate: its filter type byte (0, None), then the pixels. */
    private final byte[] line;
    private int written;

    public PngEncoder(int width, int height) {
        if (width <= 0 || height <= 0 || (long) width * 4 + 1 > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a PNG of " + width + " × " + height + " pixels");
        }
        this.width = width;
        this.height = height;
        this.stride = width * 4;
        line = new byte[stride + 1];
        out.writeBytes(SIGNATURE);
        byte[] ihdr = new byte[13];
        putInt(ihdr, 0, width);
        putInt(ihdr, 4, height);
        ihdr[8] = 8; // bit depth
        ihdr[9] = 6; // colour type: truecolour with alpha
        // compression 0 (deflate), filter method 0 (adaptive), interlace 0 (none)
        chunk("IHDR", ihdr, ihdr.length);
    }

    /** The rows of {@code band}, which must be the image's next rows, as wide as the image. */
    public void rows(Raster band) {
        if (band.width() != width || band.top() != written) {
            throw new IllegalArgumentException("band at row " + band.top() + ", " + band.width() + " wide; the PNG needs row "
                    + written + ", " + width + " wide");
        }
        for (int row = 0; row < band.rows(); row++) {
            band.rgbaRow(row, line, 1);
            deflate();
        }
    }

    /** One row of straight RGBA, 4 bytes a pixel. */
    void row(byte[] rgba) {
        System.arraycopy(rgba, 0, line, 1, stride);
        deflate();
    }

    private void deflate() {
        if (written >= height) {
            throw new IllegalStateException("the PNG has its " + height + " rows already");
        }
        deflater.setInput(line, 0, stride + 1);
        drain(false);
        written++;
    }

    /** The whole file; every row must have been written. */
    public byte[] finish() {
        if (written != height) {
            throw new IllegalStateException("the PNG has " + written + " of its " + height + " rows");
        }
        deflater.finish();
        drain(true);
        deflater.end();
        if (chunkFill > 0) {
            chunk("IDAT", chunk, chunkFill);
        }
        chunk("IEND", new byte[0], 0);
        return out.toByteArray();
    }

    private void drain(boolean finishing) {
        while (finishing ? !deflater.finished() : !deflater.needsInput()) {
            chunkFill += deflater.deflate(chunk, chunkFill, CHUNK - chunkFill);
            if (chunkFill == CHUNK) {
                chunk("IDAT", chunk, CHUNK);
                chunkFill = 0;
            }
        }
    }

    private void chunk(String type, byte[] data, int length) {
        byte[] head = new byte[8];
        putInt(head, 0, length);
        byte[] name = type.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, head, 4, 4);
        CRC32 crc = new CRC32();
        crc.update(name);
        crc.update(data, 0, length);
        byte[] tail = new byte[4];
        putInt(tail, 0, (int) crc.getValue());
        out.write(head, 0, 8);
        out.write(data, 0, length);
        out.write(tail, 0, 4);
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
