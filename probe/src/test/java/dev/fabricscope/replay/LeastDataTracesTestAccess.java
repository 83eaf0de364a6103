package dev.fabricscope.replay;

import java.nio.file.Path;
import java.util.stream.Stream;

/** The committed traces {@link LeastDataTracesTest} walks, for tests in other packages. */
public final class LeastDataTracesTestAccess {

    private LeastDataTracesTestAccess() {
    }

    public static Stream<Path> traces() throws Exception {
        return LeastDataTracesTest.traces();
    }
}
