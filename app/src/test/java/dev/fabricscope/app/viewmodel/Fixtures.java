package dev.fabricscope.app.viewmodel;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.util.prefs.Preferences;

/** What the plain view-model tests share: throw-away preferences, samples, a machine without a driver. */
final class Fixtures {

    private Fixtures() {
    }

    /** Preferences under a test node, emptied. */
    static AppPreferences prefs() {
        AppPreferences p = new AppPreferences(Preferences.userRoot().node("dev/fabricscope/app-viewmodel-test"));
        p.clear();
        return p;
    }

    static MachineSnapshot sample(String name) {
        return Samples.find(name).orElseThrow().snapshot().get();
    }

    /**
     * The {@code h200-vm} sample as a probe on a machine without the driver records it (status NOT_FOUND with the
     * loader's words, no GPUs; the shape {@code LiveProbe} gives when libnvidia-ml cannot be loaded).
     */
    static MachineSnapshot withoutDriver() {
        ObjectNode tree = Json.mapper().valueToTree(sample("h200-vm"));
        ObjectNode driver = (ObjectNode) tree.get("driver");
        driver.put("status", "NOT_FOUND");
        driver.put("message", "NVIDIA driver not found: libnvidia-ml.so.1: cannot open shared object file: No such file or directory");
        tree.putArray("gpus");
        tree.putArray("pairs");
        tree.putArray("nvSwitches");
        try {
            return Json.mapper().treeToValue(tree, MachineSnapshot.class);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
