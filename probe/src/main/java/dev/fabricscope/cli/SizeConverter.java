package dev.fabricscope.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** {@code 8}, {@code 64K}, {@code 256M}, {@code 1G} (binary multiples, as nccl-tests reads them). */
final class SizeConverter implements CommandLine.ITypeConverter<Long> {
    private static final Pattern FORM = Pattern.compile("^(\\d+)([kKmMgG]?)[bB]?$");

    @Override
    public Long convert(String value) {
        Matcher m = FORM.matcher(value.trim());
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("not a size: '" + value + "' (e.g. 8, 64K, 256M, 1G)");
        }
        long v = Long.parseLong(m.group(1));
        int shift = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            default -> 0;
        };
        if (v > (Long.MAX_VALUE >> shift)) {
            throw new CommandLine.TypeConversionException("size too large: " + value);
        }
        return v << shift;
    }
}
