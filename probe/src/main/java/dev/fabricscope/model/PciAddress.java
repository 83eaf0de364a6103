package dev.fabricscope.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PCI address compared numerically: NVML prints an 8-digit upper-case domain, CUDA a 4-digit one,
 * NCCL lower-cases. The canonical text form is {@code 0000:18:00.0}.
 */
public record PciAddress(int domain, int bus, int device, int function) implements Comparable<PciAddress> {

    private static final Pattern FORM = Pattern.compile(
            "^\\s*(?:([0-9a-fA-F]{1,8}):)?([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})(?:\\.([0-7]))?\\s*$");

    public PciAddress {
        if (domain < 0 || bus < 0 || bus > 0xff || device < 0 || device > 0x1f || function < 0 || function > 7) {
            throw new IllegalArgumentException("invalid PCI address " + domain + ":" + bus + ":" + device + "." + function);
        }
    }

    /** Plain arithmetic (a record's generated one goes through method handles; a 256-GPU advice looks up 200,000 pairs). */
    @Override
    public int hashCode() {
        return ((domain * 31 + bus) * 32 + device) * 8 + function;
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof PciAddress p && p.domain == domain && p.bus == bus && p.device == device
                && p.function == function;
    }

    /** Parses {@code 00000000:18:00.0}, {@code 0000:18:00.0} or {@code 18:00.0}. */
    @JsonCreator
    public static PciAddress parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("PCI address is null");
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a PCI address: '" + text + "'");
        }
        int domain = m.group(1) == null ? 0 : (int) Long.parseLong(m.group(1), 16);
        int function = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
        return new PciAddress(domain, Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16), function);
    }

    /** Same GPU: domain, bus and device equal (the function is ignored, as NVML and CUDA do). */
    public boolean sameDevice(PciAddress other) {
        return other != null && domain == other.domain && bus == other.bus && device == other.device;
    }

    @JsonValue
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%04x:%02x:%02x.%x", domain, bus, device, function);
    }

    /** NVML's form: {@code 00000000:18:00.0}. */
    public String toNvmlString() {
        return String.format(Locale.ROOT, "%08X:%02X:%02X.%X", domain, bus, device, function);
    }

    @Override
    public int compareTo(PciAddress o) {
        int c = Integer.compare(domain, o.domain);
        if (c == 0) c = Integer.compare(bus, o.bus);
        if (c == 0) c = Integer.compare(device, o.device);
        if (c == 0) c = Integer.compare(function, o.function);
        return c;
    }
}
