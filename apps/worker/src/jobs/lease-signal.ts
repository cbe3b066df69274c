import type { Lease } from "@orderbot/lock";

const abortedOf = Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")!.get!;

/**
 * A signal that aborts when any of `sources` aborts, and that also reads as aborted as soon as the
 * lease's deadline has passed, whether or not a timer has noticed yet.
 *
 * Why: the lease's own expiry guard is a timer. A process paused past its lease (SIGSTOP, a long
 * GC, a frozen VM) wakes up to I/O callbacks before overdue timers: the reply to the last query of
 * a transaction arrives, the transaction checks `signal.aborted`, finds it false and commits —
 * after another worker has taken over. Reading the clock on every `aborted` check closes that
 * window down to the instant between the check and the COMMIT reaching the database; the
 * database's own guarantees (SKIP LOCKED, conditional updates) cover what remains.
 */
export function leaseGuardedSignal(
  sources: readonly AbortSignal[],
  lease: Pick<Lease, "abortsAt" | "expiresAt"> | null,
): GuardedSignal {
  const controller = new AbortController();
  const signal = controller.signal;
  // Removes the listeners from the sources, which outlive this signal (the worker's shutdown signal).
  const detach = new AbortController();
  for (const source of sources) {
    if (source.aborted) controller.abort(source.reason);
    else
      source.addEventListener("abort", () => controller.abort(source.reason), {
        once: true,
        signal: detach.signal,
      });
  }
  const dispose = () => detach.abort();
  if (!lease) return { signal, dispose };
  Object.defineProperty(signal, "aborted", {
    configurable: true,
    get(): boolean {
      if (abortedOf.call(signal)) return true;
      if (Date.now() < lease.abortsAt) return false; // the lock module's own deadline: the check agrees with its timer
      controller.abort(new LeaseDeadlinePassedError(lease.expiresAt));
      return true;
    },
  });
  return { signal, dispose };
}

export interface GuardedSignal {
  signal: AbortSignal;
  /** Stops listening to the sources; call it when the work the signal guards is over. */
  dispose(): void;
}

/** The lease's deadline passed before its holder noticed (the process was paused, say). */
export class LeaseDeadlinePassedError extends Error {
  override name = "LeaseDeadlinePassedError";
  constructor(readonly expiresAt: number) {
    super(`the job's lease ran out at ${new Date(expiresAt).toISOString()}`);
  }
}
