package dev.fabricscope.probe;

import dev.fabricscope.model.PythonStack;
import dev.fabricscope.nativeapi.host.FileHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The captured H200 machine's Python, as files under a temporary root: its {@code /opt/torch/.venv}
 * ({@code src/test/resources/python-env/h200-torch-venv}, real dist-info names and versions) plus the system Python
 * {@code /usr/bin/python3 → python3.12} it was made from, with the PATH of the capture's shell.
 */
public final class PythonEnvFixture {

    public static final Path TREE = Paths.get("src/test/resources/python-env/h200-torch-venv/root");
    public static final String VENV = "/opt/torch/.venv";
    public static final String SITE = VENV + "/lib/python3.12/site-packages";

    private PythonEnvFixture() {
    }

    /** Copies the fixture under {@code root} and adds the system interpreter and the venv's bin links. */
    public static Path install(Path root) {
        try (Stream<Path> files = Files.walk(TREE)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path to = root.resolve(TREE.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.createDirectories(to.getParent());
                    Files.copy(p, to);
                }
            }
            Files.createDirectories(root.resolve("usr/bin"));
            Files.writeString(root.resolve("usr/bin/python3.12"), "");
            Files.createSymbolicLink(root.resolve("usr/bin/python3"), Paths.get("python3.12"));
            Files.createDirectories(root.resolve("usr/lib/python3.12"));
            Files.writeString(root.resolve("usr/lib/python3.12/os.py"), "");
            Files.createDirectories(root.resolve("usr/lib/python3/dist-packages"));
            Files.createDirectories(root.resolve("opt/torch/.venv/bin"));
            Files.createSymbolicLink(root.resolve("opt/torch/.venv/bin/python3"), Paths.get("../../../../usr/bin/python3"));
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The environment of the capture's shell (no VIRTUAL_ENV, the venv first on PATH). */
    public static Map<String, String> shellEnv() {
        return Map.of("PATH", VENV + "/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME", "/root");
    }

    public static FileHost host(Path root, Map<String, String> env) {
        return new FileHost(root, env, EnvironmentFilter::allowed, EnvironmentFilter::recorded);
    }

    /** The stack the probe reads from the installed fixture. */
    public static PythonStack read(Path root, List<String> explicit) {
        return new PythonStackProbe(host(root, shellEnv()), explicit).read();
    }
}
