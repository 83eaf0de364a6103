package dev.fabricscope.advisor.api;

/** Input the advisor cannot use (unknown flag, env name, assume key, version or value); the message names the valid ones. */
public class AdvisorInputException extends Exception {
    public AdvisorInputException(String message) {
        super(message);
    }
}
