import dev.fabricscope.nativeapi.CallGuard;
import dev.fabricscope.nativeapi.NativeAnswer;
import java.time.Duration;

/**
 * What CallGuard's hand-off to its per-library thread costs per call (issue 31), in a fresh JVM: the first N calls
 * (cold, as a probe makes them: about 350 on one GPU) and then 20,000 warm ones, guarded against direct.
 * Run: java -cp fabricscope.jar:bench-classes CallGuardCost [N]   (bench/startup-bench.sh builds and runs it)
 */
public final class CallGuardCost {
    public interface Ping {
        NativeAnswer<Integer> ping(int x);
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 350;
        Ping direct = x -> NativeAnswer.returned(0, x);
        Ping guarded = CallGuard.guard(Ping.class, "bench", direct, Duration.ofSeconds(20));
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            guarded.ping(i);
        }
        long cold = System.nanoTime() - t0;
        t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            direct.ping(i);
        }
        long coldDirect = System.nanoTime() - t0;
        int warm = 20_000;
        t0 = System.nanoTime();
        for (int i = 0; i < warm; i++) {
            guarded.ping(i);
        }
        long hot = System.nanoTime() - t0;
        System.out.printf("CallGuard: first %d calls %.2f ms guarded (%.1f us/call), %.2f ms direct; warm %.1f us/call%n",
                n, cold / 1e6, cold / 1e3 / n, coldDirect / 1e6, hot / 1e3 / warm);
    }
}
