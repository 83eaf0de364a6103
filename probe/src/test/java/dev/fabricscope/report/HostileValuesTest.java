package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 item 3 and 6: every value of a file is read like a hardware value; every reader agrees on versions. */
class HostileValuesTest {

    @TempDir
    Path tmp;

    static String edited(Consumer<ObjectNode> edit) throws Exception {
        ObjectNode t = (ObjectNode) Json.mapper().readTree(ReportIO.toJson(ReportFixtures.report("h200-vm")));
        edit.accept(t);
        return Json.write(t);
    }

    static MachineSnapshot snapshot(String text) throws Exception {
        MachineSnapshot viaSnapshotIO = SnapshotIO.parse(text, "r.json");
        assertEquals(viaSnapshotIO, ReportIO.parse(text, "r.json").snapshot(), "both readers read the same");
        return viaSnapshotIO;
    }

    @Test
    void negativeHugeAndInfiniteNumbersAreUnreadableReadings() throws Exception {
        MachineSnapshot s = snapshot(edited(t -> {
            ((ObjectNode) t.at("/snapshot/host/logicalCpus")).put("value", -5);
            ((ObjectNode) t.at("/snapshot/gpus/0/memoryTotalBytes")).put("value", -8589934592L * 1024 * 1024 * 1024 / 1024);
            ((ObjectNode) t.at("/snapshot/gpus/0/smCount")).put("value", "132");
            ((ObjectNode) t.at("/snapshot/gpus/0/nvmlIndex")).put("value", 1e300);
        }));
        assertEquals("unreadable (-5: negative)", s.host().logicalCpus().missing().detail());
        assertTrue(s.gpus().get(0).memoryTotalBytes().missing().detail().endsWith(": negative)"));
        assertEquals("unreadable (\"132\": not a whole number)", s.gpus().get(0).smCount().missing().detail());
        assertTrue(s.gpus().get(0).nvmlIndex().missing().detail().startsWith("unreadable (1.0E300: "));
        MachineSnapshot huge = snapshot(edited(t -> ((ObjectNode) t.at("/snapshot/gpus/0/memoryTotalBytes")).put("value", Long.MAX_VALUE)));
        assertTrue(huge.gpus().get(0).memoryTotalBytes().missing().detail().contains("over "));
    }

    @Test
    void rawValuesAreEscapedInTheReason() throws Exception {
        MachineSnapshot s = snapshot(edited(t -> ((ObjectNode) t.at("/snapshot/gpus/0/computeCapability")).put("value", "9.x\u001b]0;pwned\u0007")));
        String why = s.gpus().get(0).computeCapability().missing().detail();
        assertEquals("unreadable (\"9.x\\u001b]0;pwned\\u0007\": not a compute capability (major.minor))", why);
        assertTrue(Double.isNaN(s.gpus().get(0).computeCapabilityNumber()));
    }

    @Test
    void duplicateKeysAreRejectedByEveryReader() throws Exception {
        String text = ReportIO.toJson(ReportFixtures.report("h200-vm")).replaceFirst("\"schemaVersion\" : 1", "\"schemaVersion\" : 1, \"schemaVersion\" : 99");
        assertTrue(text.contains("\"schemaVersion\" : 99"));
        for (var reader : List.<ThrowingRead>of(t -> SnapshotIO.parse(t, "r.json"), t -> ReportIO.parse(t, "r.json"))) {
            SnapshotIO.ReadException e = assertThrows(SnapshotIO.ReadException.class, () -> reader.read(text));
            assertTrue(e.getMessage().contains("Duplicate field 'schemaVersion'"), e.getMessage());
        }
    }

    interface ThrowingRead {
        Object read(String text) throws Exception;
    }

    @Test
    void reportVersionIsCheckedByEveryReader() throws Exception {
        for (String bad : List.of(edited(t -> t.put("reportVersion", 2)), edited(t -> t.put("reportVersion", "1")),
                edited(t -> t.put("format", "other")), edited(t -> t.remove("reportVersion")))) {
            String a = assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.parse(bad, "r.json")).getMessage();
            String b = assertThrows(SnapshotIO.ReadException.class, () -> ReportIO.parse(bad, "r.json")).getMessage();
            assertEquals(a, b);
        }
    }

    @Test
    void aReportWithoutGpusIsNotAMachineWithNoGpus() throws Exception {
        String text = edited(t -> ((ObjectNode) t.get("snapshot")).remove("gpus"));
        String e = assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.parse(text, "r.json")).getMessage();
        assertTrue(e.contains("gpus"), e);
    }

    @Test
    void aMissingRequiredFieldNeverSaysNullPointerException() throws Exception {
        String text = edited(t -> ((ObjectNode) t.at("/advice/verdicts/0")).putNull("framework"));
        String e = assertThrows(SnapshotIO.ReadException.class, () -> ReportIO.parse(text, "r.json")).getMessage();
        assertFalse(e.contains("NullPointerException") || e.contains("Cannot construct"), e);
    }

    @Test
    void aFifoDoesNotHangAndAFolderIsNamed() throws Exception {
        Path fifo = tmp.resolve("pipe.json");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(10, TimeUnit.SECONDS) && Files.exists(fifo));
        String e = assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.read(fifo)).getMessage();
        assertTrue(e.endsWith("not a regular file (a device, FIFO or socket)"), e);
        assertTrue(assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.read(tmp)).getMessage().contains("is a folder"));
    }

    @Test
    void aPermissionErrorSaysSo() throws Exception {
        Path f = Files.writeString(tmp.resolve("r.json"), "{}");
        Files.setPosixFilePermissions(f, java.util.Set.of());
        assumeTrue(!Files.isReadable(f), "running as root: permissions do not apply");
        assertTrue(assertThrows(SnapshotIO.ReadException.class, () -> SnapshotIO.read(f)).getMessage().endsWith("permission denied"));
    }

    @Test
    void theReportConstantsAreTheReadersConstants() {
        assertEquals(Report.FORMAT, SnapshotIO.REPORT_FORMAT);
        assertEquals(Report.REPORT_VERSION, SnapshotIO.REPORT_VERSION);
    }
}
