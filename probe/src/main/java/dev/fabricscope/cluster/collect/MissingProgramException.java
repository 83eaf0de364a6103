package dev.fabricscope.cluster.collect;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A launcher the collect needs ({@code srun}, {@code pdsh}) is not installed or not on the PATH. */
public final class MissingProgramException extends IOException {

    public MissingProgramException(String message) {
        super(message);
    }

    /** Throws when {@code program} (a bare name looked up on PATH, or a path) cannot be run. */
    static void requireRunnable(String program, String hint) throws MissingProgramException {
        if (program.contains("/")) {
            if (!Files.isExecutable(Path.of(program))) {
                throw new MissingProgramException(program + " not found or not executable; " + hint);
            }
            return;
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return;
            }
        }
        throw new MissingProgramException(program + " not found on PATH; " + hint);
    }
}
