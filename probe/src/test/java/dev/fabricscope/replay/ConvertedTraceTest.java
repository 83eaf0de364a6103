package dev.fabricscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.cli.CapturedTraces;
import dev.fabricscope.nativeapi.trace.TraceIO;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The committed two-GPU trace is exactly what the converter makes of the captured readings. */
class ConvertedTraceTest {

    @Test
    void committedTraceIsTheConversionOfTheReadings() throws Exception {
        NativeTrace converted = PynvmlReadingsConverter.convert(CapturedTraces.NVSWITCH_2GPU);
        String text = TraceIO.write(converted);
        if (Boolean.getBoolean("fabricscope.regenerate")) {
            Files.writeString(CapturedTraces.NVSWITCH_2GPU.resolve("trace.json"), text);
        }
        assertEquals(text, CapturedTraces.read(CapturedTraces.NVSWITCH_2GPU, "trace.json"));
    }
}
