package dev.fabricscope.nativeapi;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/** What every JNA backend does the same way: load a library by its names, and turn one call into an answer. */
public final class JnaCalls {

    private JnaCalls() {
    }

    /** The loaded library and the name it was found by, or the loader's words for the first name tried. */
    public record Loaded<L>(L library, String name, String failure) {
    }

    public static <L extends Library> Loaded<L> load(Class<L> api, String... names) {
        String why = null;
        for (String name : names) {
            try {
                return new Loaded<>(Native.load(name, api), name, null);
            } catch (LinkageError e) {
                if (why == null) {
                    why = loaderLine(e.getMessage());
                }
            }
        }
        return new Loaded<>(null, null, why);
    }

    /** The loader's useful line: the one saying why the shared object could not be opened. */
    public static String loaderLine(String message) {
        if (message == null) {
            return "unknown reason";
        }
        String[] lines = message.split("\n");
        for (String line : lines) {
            if (line.contains("cannot open shared object") || line.contains("undefined symbol") || line.contains("wrong ELF")) {
                return line.trim();
            }
        }
        return lines[0].trim();
    }

    /**
     * One native call: its return code, and its outputs when the code is {@code success}; a missing symbol or a
     * binding failure becomes a fault. {@code library} null means the library was never loaded.
     */
    public static <T> NativeAnswer<T> call(Object library, String libraryName, int success, IntSupplier nativeCall, Supplier<T> outputs) {
        if (library == null) {
            return NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, libraryName + " not loaded");
        }
        int rc;
        try {
            rc = nativeCall.getAsInt();
        } catch (UnsatisfiedLinkError e) {
            return NativeAnswer.failed(NativeAnswer.Fault.SYMBOL_MISSING, loaderLine(e.getMessage()));
        } catch (RuntimeException | Error e) {
            return NativeAnswer.failed(NativeAnswer.Fault.THREW, e.toString());
        }
        return NativeAnswer.returned(rc, rc == success ? outputs.get() : null);
    }
}
