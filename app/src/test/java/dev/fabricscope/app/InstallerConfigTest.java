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
        String desktop = Files.readString(Path.of("../installers/linux/share/dev.fabricscope.Fabricscope.desktop"));
        assertTrue(desktop.contains("\nExec=/opt/fabricscope/bin/fabricscope\n"), "desktop entry starts the launcher with no arguments");
        assertTrue(desktop.contains("\nIcon=dev.fabricscope.Fabricscope\n"), "the icon by its hicolor name, as the file is named");
        assertTrue(desktop.contains("\nStartupWMClass=" + FabricscopeApp.class.getName() + "\n"),
                "the window's WM_CLASS (JavaFX uses the Application class name) matches the desktop entry");
    }

    @Test
    void oneDesktopEntryNamedByItsApplicationIdWithIconsInEveryHicolorSize() throws IOException {
        String extras = Files.readString(Path.of("../installers/linux/image-extras.sh"));
        assertTrue(extras.contains("applications/dev.fabricscope.Fabricscope.desktop"), extras);
        for (int size : new int[] {16, 24, 32, 48, 64, 128, 256, 512}) {
            assertTrue(Files.exists(Path.of("../icons/png/fabricscope-" + size + ".png")), "icon " + size);
            assertTrue(extras.contains(" " + size) || extras.contains(size + " "), "hicolor size " + size + " installed");
        }
        for (String args : new String[] {"deb.args", "rpm.args"}) {
            String a = Files.readString(Path.of("../installers/linux/" + args));
            assertTrue(!a.contains("--linux-shortcut"), args + ": jpackage's own fabricscope-fabricscope.desktop would be a second entry");
        }
        assertTrue(Files.readString(Path.of("../installers/linux/deb.args")).contains("--linux-deb-maintainer "), "a Maintainer address");
    }

    @Test
    void theCommandLinePackageHasNoJavaFxAndNoDesktopLibraries() throws IOException {
        String cli = Files.readString(Path.of("../installers/linux/cli-app.args"));
        Matcher m = Pattern.compile("(?m)^--add-modules (\\S+)").matcher(cli);
        assertTrue(m.find(), cli);
        for (String module : m.group(1).split(",")) {
            assertTrue(!module.startsWith("javafx") && !module.equals("java.desktop"), "module " + module + " would pull in GTK/X");
        }
        assertTrue(cli.contains("--main-class " + dev.fabricscope.cli.Main.class.getName()), cli);
        for (String args : new String[] {"cli-deb.args", "cli-rpm.args"}) {
            String a = Files.readString(Path.of("../installers/linux/" + args));
            assertTrue(!a.contains("--linux-package-deps") && !a.contains("--linux-shortcut") && a.contains("--linux-package-name fabricscope-cli"), a);
        }
        assertEquals(Files.readString(Path.of("../installers/linux/resources/fabricscope.spec")),
                Files.readString(Path.of("../installers/linux/cli-resources/fabricscope-cli.spec")), "one RPM spec for both packages");
    }
}
