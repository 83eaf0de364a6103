package dev.fabricscope.render.raster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Inflater;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The PNG writer against the specification (ISO/IEC 15948): signature, chunk order and CRCs, IHDR's fields, the
 * zlib stream's rows with their filter bytes, and the pixels as ImageIO decodes them.
 */
class PngEncoderTest {

    /** One chunk as read back. */
    record Chunk(String type, byte[] data, boolean crcOk) {
    }

    static List<Chunk> chunks(byte[] png) {
        assertArrayEquals(PngEncoder.SIGNATURE, Arrays.copyOf(png, 8), "the PNG signature");
        ByteBuffer b = ByteBuffer.wrap(png, 8, png.length - 8);
        List<Chunk> out = new ArrayList<>();
        while (b.hasRemaining()) {
            int length = b.getInt();
            byte[] type = new byte[4];
            b.get(type);
            byte[] data = new byte[length];
            b.get(data);
            int crc = b.getInt();
            CRC32 c = new CRC32();
            c.update(type);
            c.update(data);
            out.add(new Chunk(new String(type, StandardCharsets.US_ASCII), data, (int) c.getValue() == crc));
        }
        return out;
    }

    static byte[] encode(int w, int h, int[] argb) {
        Raster r = new Raster(w, h);
        r.moveTo(0, h, 0);
        PngEncoder png = new PngEncoder(w, h);
        byte[] row = new byte[w * 4];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int p = argb[y * w + x];
                row[x * 4] = (byte) (p >> 16);
                row[x * 4 + 1] = (byte) (p >> 8);
                row[x * 4 + 2] = (byte) p;
                row[x * 4 + 3] = (byte) (p >>> 24);
            }
            png.row(row);
        }
        return png.finish();
    }

    @Test
    void chunksAreInOrderWithValidCrcsAndTheRowsInflateWhole() throws Exception {
        int[] pixels = {0xffff0000, 0xff00ff00, 0xff0000ff, 0x80ffffff, 0x00000000, 0xff123456};
        byte[] png = encode(3, 2, pixels);
        List<Chunk> chunks = chunks(png);
        assertEquals("IHDR", chunks.get(0).type());
        assertEquals("IEND", chunks.get(chunks.size() - 1).type());
        assertEquals(0, chunks.get(chunks.size() - 1).data().length);
        assertTrue(chunks.stream().allMatch(Chunk::crcOk), "every CRC-32 matches its chunk");
        assertTrue(chunks.subList(1, chunks.size() - 1).stream().allMatch(c -> c.type().equals("IDAT")));
        ByteBuffer ihdr = ByteBuffer.wrap(chunks.get(0).data());
        assertEquals(13, ihdr.capacity());
        assertEquals(3, ihdr.getInt());
        assertEquals(2, ihdr.getInt());
        assertArrayEquals(new byte[] {8, 6, 0, 0, 0}, Arrays.copyOfRange(chunks.get(0).data(), 8, 13),
                "8-bit RGBA, deflate, adaptive filtering, no interlace");

        byte[] raw = inflate(chunks);
        assertEquals(2 * (1 + 3 * 4), raw.length, "each row: a filter byte and 4 bytes a pixel");
        assertEquals(0, raw[0], "filter type None");
        assertEquals(0, raw[13]);
        assertEquals((byte) 0xff, raw[1], "row 0 starts with red: 255, 0, 0, 255");
        assertEquals((byte) 0x80, raw[13 + 1 + 3], "pixel (0, 1): half-transparent white, alpha 128");

        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertNotNull(img);
        for (int i = 0; i < pixels.length; i++) {
            int got = img.getRGB(i % 3, i / 3);
            int want = pixels[i];
            assertEquals(want >>> 24, got >>> 24, "alpha of pixel " + i);
            if (want >>> 24 != 0) {
                assertEquals(want & 0xffffff, got & 0xffffff, "colour of pixel " + i);
            }
        }
    }

    @Test
    void aLargeImageSpreadsOverSeveralIdatChunksAndRoundTrips() throws Exception {
        int w = 300;
        int h = 200;
        int[] pixels = new int[w * h];
        Random random = new Random(30);
        for (int i = 0; i < pixels.length; i++) {
            // noise on half the rows (incompressible), flat colour and gradients on the others (every filter pays)
            pixels[i] = (i / w) % 2 == 0 ? random.nextInt() | 0xff000000 : 0xff000000 | (i % w) << 8 | (i / w);
        }
        byte[] png = encode(w, h, pixels);
        List<Chunk> chunks = chunks(png);
        long idats = chunks.stream().filter(c -> c.type().equals("IDAT")).count();
        assertTrue(idats >= 2, idats + " IDAT chunks");
        assertTrue(chunks.stream().allMatch(c -> c.data().length <= PngEncoder.CHUNK && c.crcOk()));
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        int[] back = img.getRGB(0, 0, w, h, null, 0, w);
        assertArrayEquals(pixels, back);
    }

    @Test
    void aDamagedChunkIsCaught() {
        byte[] png = encode(2, 2, new int[] {-1, -1, -1, 0xff000000});
        png[png.length - 20] ^= 0x40; // inside the IDAT chunk
        assertTrue(chunks(png).stream().anyMatch(c -> !c.crcOk()), "the CRC check sees a flipped bit");
    }

    @Test
    void rowsMustBeWholeAndInOrder() {
        PngEncoder png = new PngEncoder(2, 2);
        png.row(new byte[8]);
        assertThrows(IllegalStateException.class, png::finish, "a row short");
        png.row(new byte[8]);
        assertThrows(IllegalStateException.class, () -> png.row(new byte[8]), "a row too many");
        Raster band = new Raster(2, 1);
        band.moveTo(1, 1, 0);
        assertThrows(IllegalArgumentException.class, () -> new PngEncoder(2, 2).rows(band), "the band of row 1 first");
        assertThrows(IllegalArgumentException.class, () -> new PngEncoder(0, 5));
        assertEquals(0x89, png.finish()[0] & 0xff);
    }

    static byte[] inflate(List<Chunk> chunks) throws Exception {
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        chunks.stream().filter(c -> c.type().equals("IDAT")).forEach(c -> z.writeBytes(c.data()));
        Inflater inflater = new Inflater();
        inflater.setInput(z.toByteArray());
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (!inflater.finished()) {
            int n = inflater.inflate(buf);
            if (n == 0 && inflater.needsInput()) {
                break;
            }
            raw.write(buf, 0, n);
        }
        assertTrue(inflater.finished(), "the zlib stream ends");
        inflater.end();
        return raw.toByteArray();
    }
}
