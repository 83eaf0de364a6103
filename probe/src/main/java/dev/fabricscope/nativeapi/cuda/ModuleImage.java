package dev.fabricscope.nativeapi.cuda;

import com.fasterxml.jackson.annotation.JsonValue;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A PTX or cubin image for {@code cuModuleLoadData} (NUL-terminated for PTX), recorded by name, size and SHA-256:
 * a replay loads the same module only when the image is the same.
 */
public record ModuleImage(String name, byte[] bytes) {

    public ModuleImage {
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    byte[] shared() {
        return bytes;
    }

    @JsonValue
    public String recorded() {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(bytes);
            return name + " (" + bytes.length + " bytes, sha256 " + HexFormat.of().formatHex(d, 0, 8) + ")";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
