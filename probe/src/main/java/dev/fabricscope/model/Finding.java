package dev.fabricscope.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Something the user should know about the machine, worst first.
 *
 * @param severity ERROR, WARNING or INFO
 * @param code     stable identifier, e.g. {@code nvlink-hidden-in-vm}
 * @param message  one sentence
 * @param subject  what it is about (a GPU's PCI address, "driver"…), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Finding(Severity severity, String code, String message, String subject) {
    public enum Severity { ERROR, WARNING, INFO }
}
