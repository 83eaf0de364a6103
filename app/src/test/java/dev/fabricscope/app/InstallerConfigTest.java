package dev.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The installer profile's settings that must follow the code (run from the app module's folder, as surefire does). */
class InstallerConfigTest {

    @Test
    void installerVersionIsTheProjectVersionWithoutSnapshot() throws IOException {
        Matcher m = Pattern.compile("<installer.appVersion>([^<]+)</installer.appVersion>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find(), "installer.appVersion in app/pom.xml");
        assertEquals(Version.get().replace("-SNAPSHOT", ""), m.group(1));
    }

    @Test
    void installersStartTheLauncherThatChoosesBetweenWindowAndCommandLine() throws IOException {
        String appArgs = Files.readString(Path.of("../installers/app.args"));
        assertTrue(appArgs.contains("--main-class " + Launcher.class.getName()), appArgs);
        String desktop = Files.readString(Path.of("../installers/linux/resources/fabricscope.desktop"));
        assertTrue(desktop.contains("\nExec=APPLICATION_LAUNCHER\n"), "desktop entry starts the launcher with no arguments");
        assertTrue(desktop.contains("\nStartupWMClass=" + FabricscopeApp.class.getName() + "\n"),
                "the window's WM_CLASS (JavaFX uses the Application class name) matches the desktop entry");
    }
}
