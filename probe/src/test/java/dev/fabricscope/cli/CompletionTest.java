package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 26: the completion script offers the sample names, frameworks, knobs and assume keys, each after its option. */
class CompletionTest {

    @TempDir
    Path tmp;

    private final String script = BuildDocs.completion(Main.commandLine());

    @Test
    void everyOptionCompletesFromItsOwnArray() {
        assertFalse(script.contains("NAME_option_args"), "no array shared by two options labelled NAME");
        assertTrue(script.contains("local sample_option_args=(\"h200-vm\" \"dgx-h100\""), "sample names");
        assertTrue(script.contains("local framework_option_args=(\"sglang\" \"vllm\" \"flashinfer\" \"nccl\")"), "frameworks");
        assertTrue(script.contains("\"NCCL_NVLS_ENABLE=\"") && script.contains("\"disable-custom-all-reduce=\""), "env names and flags");
        assertTrue(script.contains("\"multicast=\""), "assume keys");
        assertTrue(script.contains("'--sample')\n      local IFS=$'\\n'\n      COMPREPLY=( $( compReplyArray \"${sample_option_args[@]}\" ) )"),
                "--sample completes sample names");
    }

    /** Runs the script in bash, as a shell would on Tab: {@code words} typed, the last one being completed. */
    private String complete(String... words) throws Exception {
        Path file = Files.writeString(tmp.resolve("fabricscope"), script);
        StringBuilder cmd = new StringBuilder("source '" + file + "' 2>/dev/null; COMP_WORDS=(");
        for (String w : words) {
            cmd.append('\'').append(w).append("' ");
        }
        cmd.append("); COMP_CWORD=").append(words.length - 1).append("; _complete_fabricscope 2>/dev/null; echo \"${COMPREPLY[*]}\"");
        Process p = new ProcessBuilder("bash", "-c", cmd.toString()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        return new String(p.getInputStream().readAllBytes()).strip();
    }

    @Test
    void bashCompletesSamplesFrameworksAndKnobs() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")), "no bash here");
        assertEquals("dgx-h100 dgx-a100", complete("fabricscope", "advise", "--sample", "dgx"));
        assertEquals("vllm", complete("fabricscope", "advise", "--framework", "v"));
        assertEquals("VLLM_ALLREDUCE_USE_FLASHINFER= VLLM_ALLREDUCE_USE_FLASHINFER_PCIE_IPC= VLLM_ALLREDUCE_USE_SYMM_MEM=", complete("fabricscope", "advise", "--env", "VLLM_ALLR"));
        assertTrue(complete("fabricscope", "show", "--sample", "").contains("gb200-nvl72-tray"));
        assertTrue(complete("fabricscope", "advise", "--flag", "enable-nccl").contains("enable-nccl-nvls="));
    }
}
