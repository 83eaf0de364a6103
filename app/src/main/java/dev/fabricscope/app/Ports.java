package dev.fabricscope.app;

import dev.fabricscope.app.viewmodel.AdvisorPort;
import dev.fabricscope.app.viewmodel.ChecksPort;

/** Connects the Advisor and Checks tabs to the probe module's advisor and live checks. */
final class Ports {

    private Ports() {
    }

    static AdvisorPort advisor() {
        return new AdvisorAdapter();
    }

    static dev.fabricscope.app.viewmodel.ReportPort reports() {
        return new ReportAdapter();
    }

    static ChecksPort checks() {
        return new ChecksAdapter();
    }
}
