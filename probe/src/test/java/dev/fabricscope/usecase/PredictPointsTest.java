package dev.fabricscope.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.predict.Calibration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which measured times a check hands the fit: CUDA events where every row holds them, both placements where run. */
class PredictPointsTest {

    static AllReduceResult check(AllReduceResult.Row... rows) {
        return new AllReduceResult(AllReduceResult.CHECK, null, null, null, null, null, null, List.of(rows), List.of(), null);
    }

    static AllReduceResult.Row row(long bytes, double host, Double inPlaceHost, Double event, Double inPlaceEvent, long wrong) {
        return new AllReduceResult.Row("nccl", "bf16", bytes, bytes / 2, host, 0, 0, wrong, inPlaceHost, null, null,
                inPlaceHost == null ? null : 0L, "graph", event, inPlaceEvent);
    }

    @Test
    void eventsAndBothPlacementsWhereHeldElseTheHostClock() {
        Predict.Points events = Predict.points(check(row(8, 12, 11.0, 11.5, 10.5, 0), row(1024, 13, 12.0, 12.5, 11.5, 0)),
                "nccl", "graph", true);
        assertTrue(events.events() && events.inPlace());
        assertEquals("CUDA events, out of place and in place", events.what());
        assertEquals(List.of(new Calibration.Point(8, 11.5), new Calibration.Point(8, 10.5), new Calibration.Point(1024, 12.5),
                new Calibration.Point(1024, 11.5)), events.points());
        // one row without events: the host clock for all, not a mix of two clocks
        Predict.Points host = Predict.points(check(row(8, 12, 11.0, 11.5, 10.5, 0), row(1024, 13, null, null, null, 0)),
                "nccl", "graph", true);
        assertFalse(host.events());
        assertEquals(List.of(new Calibration.Point(8, 12), new Calibration.Point(8, 11.0), new Calibration.Point(1024, 13)), host.points());
        assertEquals("host clock, out of place and in place", host.what());
        // a row with a wrong element is no measurement of the all-reduce
        assertEquals(2, Predict.points(check(row(8, 12, 11.0, 11.5, 10.5, 0), row(1024, 13, 12.0, 12.5, 11.5, 3)),
                "nccl", "graph", true).points().size());
    }
}
