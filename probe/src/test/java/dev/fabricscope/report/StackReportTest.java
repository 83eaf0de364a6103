package dev.fabricscope.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.RecordJson;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.probe.PythonEnvFixture;
import dev.fabricscope.samples.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reports carry the stack: Markdown and HTML tables, and --redact hides the user in environment paths. */
class StackReportTest {

    @TempDir
    Path root;

    private MachineSnapshot withUserEnv() throws Exception {
        PythonEnvFixture.install(root);
        Path sp = root.resolve("home/alice/.venv/lib/python3.12/site-packages");
        Files.createDirectories(sp.resolve("vllm-0.11.0.dist-info"));
        Files.writeString(sp.resolve("vllm-0.11.0.dist-info/METADATA"), "Name: vllm\nVersion: 0.11.0\n");
        Files.writeString(root.resolve("home/alice/.venv/pyvenv.cfg"), "home = /usr/bin\nversion = 3.12.3\n");
        PythonStack stack = new dev.fabricscope.probe.PythonStackProbe(PythonEnvFixture.host(root,
                java.util.Map.of("PATH", "/usr/bin", "HOME", "/home/alice")), List.of()).read();
        return Samples.find("h200-vm").orElseThrow().snapshot().get().withPythonStack(stack);
    }

    @Test
    void markdownAndHtmlListTheEnvironments() throws Exception {
        Report r = Reports.fromSnapshot(withUserEnv());
        String md = MarkdownReport.render(r);
        assertTrue(md.contains("Python environments (3; read from their files)"), md);
        assertTrue(md.contains("| /home/alice/.venv (the frameworks') | venv · Python 3.12.3 | vllm 0.11.0 |"), md);
        String html = HtmlReport.render(r);
        assertTrue(html.contains("Python environments (3; read from their files)"), html);
        assertTrue(html.contains("torch 2.11.0 (2.11.0+cu130, CUDA 13.0, cuDNN 9.19.0.56)"), html);
    }

    @Test
    void redactionHidesTheUserInEnvironmentPaths() throws Exception {
        Report redacted = Redactor.redact(Reports.fromSnapshot(withUserEnv()));
        String json = RecordJson.write(redacted);
        assertFalse(json.contains("alice"), "user name left in the redacted report");
        assertTrue(json.contains("/opt/torch/.venv"), "paths without a user stay");
        assertFalse(MarkdownReport.render(redacted).contains("alice"));
    }

    /** Issue 25: cuDNN 9.19.0.56 and the wheel folder named after it are versions, not an IP address. */
    @Test
    void redactionKeepsFourPartPackageVersions() throws Exception {
        Report redacted = Redactor.redact(Reports.fromSnapshot(withUserEnv()));
        String json = RecordJson.write(redacted);
        assertTrue(json.contains("nvidia_cudnn_cu13-9.19.0.56.dist-info"), "the wheel's folder in its metadata path");
        assertTrue(HtmlReport.render(redacted).contains("cuDNN 9.19.0.56"), "the cuDNN version torch reports");
        assertFalse(redacted.redaction().describe().contains("IP addresses"), redacted.redaction().describe());
    }

    @Test
    void oldSnapshotsShowNoStackSection() {
        Report r = Reports.fromSnapshot(Samples.find("h200-vm").orElseThrow().snapshot().get());
        assertFalse(MarkdownReport.render(r).contains("Python environments"));
        assertFalse(HtmlReport.render(r).contains("Python environments"));
    }
}
