package dev.fabricscope.check.api;

/**
 * Progress of a running check, for the GUI's progress bar and log.
 *
 * @param check    {@code preflight}, {@code p2p} or {@code allreduce}
 * @param kind     what happened
 * @param message  one line
 * @param fraction 0..1 of the check done, or -1 when unknown
 */
public record CheckEvent(String check, Kind kind, String message, double fraction) {

    public enum Kind { STARTED, PROGRESS, WARNING, FINISHED }
}
