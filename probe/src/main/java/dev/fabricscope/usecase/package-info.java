/**
 * The use cases the command line and the desktop app share: {@link dev.fabricscope.usecase.Advise},
 * {@link dev.fabricscope.usecase.MakeReport}, {@link dev.fabricscope.usecase.Compare},
 * {@link dev.fabricscope.usecase.InspectCluster} and {@link dev.fabricscope.usecase.RunCheck}. Each takes a plain
 * request record and returns a result record; none prints, exits or keeps static state. Whatever touches the machine
 * (the live probe, the check processes, the clock) is handed to its constructor, so tests pass their own.
 */
package dev.fabricscope.usecase;
