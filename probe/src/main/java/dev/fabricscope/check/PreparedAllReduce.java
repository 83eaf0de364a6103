package dev.fabricscope.check;

/**
 * One all-reduce on every rank, prepared once and enqueued many times: NCCL's in {@link AllReduceCheck}, the one-shot
 * and two-shot kernels' in {@link CustomAllReduce}.
 */
interface PreparedAllReduce extends AutoCloseable {
    /** Every rank, from one thread (NCCL: inside one group call). */
    void all();

    /** One rank, from that rank's own host thread. */
    void rank(int r);

    /** An asynchronous error to stop on, or null. */
    String asyncError();

    @Override
    void close();
}
