package dev.fabricscope.nativeapi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fabricscope.nativeapi.NativeAnswer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A check's repeated answers are folded into counts and replayed in the same order. */
class TraceFoldTest {

    /** A clock that answers the same time. */
    public interface Tick {
        NativeAnswer<Long> nanoTime(int lane);
    }

    /** A stream that answers NOT_READY (600) n times, then SUCCESS, per wait. */
    public interface Poll {
        NativeAnswer<Void> cuStreamQuery(long stream);
    }

    @Test
    void repeatsFoldPerKeyAndReplayInOrder() throws Exception {
        int[] pattern = {600, 600, 600, 0, 600, 0, 0};
        int[] k = {0};
        TraceRecorder folding = new TraceRecorder(true);
        Poll live = s -> NativeAnswer.returned(pattern[k[0]++ % pattern.length], null);
        Poll recorded = folding.wrap(Poll.class, "cuda", live);
        Tick clock = folding.wrap(Tick.class, "clock", lane -> NativeAnswer.ok(1000L * (lane + 2)));
        List<Integer> answered = new ArrayList<>();
        for (int i = 0; i < pattern.length; i++) {
            answered.add(recorded.cuStreamQuery(7).rc());
            clock.nanoTime(-1); // another key between: folding is per key
        }
        List<TraceCall> calls = folding.calls();
        assertEquals(List.of(3, 7, 1, 1, 2), calls.stream().map(TraceCall::count).toList(),
                "600×3, the clock's 7 equal answers, then 0, 600, 0×2: " + calls);
        NativeTrace t = new NativeTrace(NativeTrace.FORMAT, 1, null, null, List.of(), null, "test", calls, null);
        Poll replay = new TraceReplayer(TraceIO.read(TraceIO.write(t).getBytes(StandardCharsets.UTF_8), "t"))
                .proxy(Poll.class, "cuda");
        List<Integer> replayed = new ArrayList<>();
        for (int i = 0; i < pattern.length; i++) {
            replayed.add(replay.cuStreamQuery(7).rc());
        }
        assertEquals(answered, replayed);
        assertEquals(0, replay.cuStreamQuery(7).rc(), "past the end: the last answer again");
    }

    @Test
    void theProbesRecorderKeepsEveryCall() {
        TraceRecorder plain = new TraceRecorder();
        Poll p = plain.wrap(Poll.class, "cuda", s -> NativeAnswer.returned(600, null));
        p.cuStreamQuery(1);
        p.cuStreamQuery(1);
        assertEquals(2, plain.calls().size());
    }

    @Test
    void aCountBelowOneIsNotATrace() {
        String bad = "{\"format\":\"" + NativeTrace.FORMAT + "\",\"traceVersion\":1,\"calls\":[{\"seq\":0,\"lib\":\"cuda\","
                + "\"call\":\"cuStreamQuery\",\"args\":[1],\"rc\":0,\"times\":0}]}";
        var e = org.junit.jupiter.api.Assertions.assertThrows(TraceIO.TraceFormatException.class,
                () -> TraceIO.read(bad.getBytes(StandardCharsets.UTF_8), "bad.json"));
        assertEquals("bad.json: at $.calls[0].times: 0 is not a count", e.getMessage());
    }
}
