package dev.fabricscope.nativeapi.cuda;

import com.fasterxml.jackson.annotation.JsonValue;
import java.nio.ByteBuffer;

/**
 * Host data a check sends to the device: a direct buffer. A trace records only that it was host data, never its
 * bytes (the check's inputs are computed again on replay); the byte count is the call's own argument.
 */
public record HostData(ByteBuffer buffer) {

    public HostData {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("host data needs a direct buffer");
        }
    }

    @JsonValue
    public String recorded() {
        return "host data";
    }
}
