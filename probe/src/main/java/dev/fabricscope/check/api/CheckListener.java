package dev.fabricscope.check.api;

/** Receives {@link CheckEvent}s; called on the check's worker thread, so a GUI must hand them to its own thread. */
@FunctionalInterface
public interface CheckListener {
    CheckListener NONE = e -> { };

    void onEvent(CheckEvent event);
}
