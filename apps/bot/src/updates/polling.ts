import type { Api } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "@orderbot/platform";
import { loggableError } from "../log-safety.ts";
import type { Parking } from "./parking.ts";
import type { ProcessUpdate } from "./pipeline.ts";
import { createPollQueue } from "./poll-queue.ts";

export interface PollerOptions {
  api: Api;
  processUpdate: ProcessUpdate;
  logger: Logger;
  allowedUpdates: readonly string[];
  /** Long-poll timeout in seconds; keep it below the API client's own timeout. */
  timeoutSeconds?: number;
  /**
   * A failing update is run again, after a growing pause, up to this many times, then skipped
   * with an error (and counted in `skipped`). With the default pauses (0.5 s doubling to 30 s) 12
   * attempts span about three minutes: a database or Redis restart, not a bug that will never go
   * away. An update that carries money (a successful or refunded payment) is never skipped: it is
   * retried without limit, at the longest pause, because skipping it loses a charge.
   */
  maxAttempts?: number;
  /** Counts every skipped update by its type (orderbot_updates_skipped_total{kind}). */
  skipped?: { inc(labels: { kind: string }): void };
  /** First pause before a failed update runs again (ms), doubled per failed attempt. */
  retryBaseMs?: number;
  /** Longest pause (ms). */
  retryMaxMs?: number;
  /** How often to poll while updates are unfinished (Telegram answers at once then). */
  busyPollMs?: number;
  /**
   * The shortest time between two long polls that came back empty. Telegram holds an empty poll
   * for its whole timeout; a misbehaving server or proxy that answers at once would otherwise make
   * this loop spin (thousands of calls a second were measured).
   */
  minEmptyPollMs?: number;
  /**
   * Where an unfinished update that holds back every later one is kept (parking.ts). Without it,
   * the oldest unfinished update stays at Telegram, and once the 100 updates after it are fetched
   * nothing newer is.
   */
  parking?: Parking;
  /** Updates per getUpdates (1-100; Telegram's largest). */
  limit?: number;
}

/**
 * Long polling for development and for running against real Telegram without a public URL. It
 * feeds the same pipeline as the webhook: updates of one chat run one after another, different
 * chats run side by side, and an update is confirmed (the offset moves past it) only once it
 * finished. Polling goes on while chats are busy, so a slow chat never holds up another one's
 * updates (a pre-checkout query must be answered within 10 s).
 *
 * An update that failed, or that another process is still running ("in-progress": its `update`
 * lock is held, perhaps by a process that died), runs again after a pause, as Telegram re-delivers
 * a webhook that answered 500 or 503; its chat's later updates wait for it. Only failures count
 * towards giving up, and an update that carries money is never given up (docs/architecture.md,
 * "Updates that carry money"). When a whole batch of 100 brings nothing new, the unfinished
 * updates in it are parked (parking.ts) and the offset moves past them.
 */
export function startPolling(options: PollerOptions): {
  stop(): Promise<void>;
  done: Promise<void>;
} {
  const controller = new AbortController();
  const queue = createPollQueue({
    processUpdate: options.processUpdate,
    logger: options.logger,
    maxAttempts: options.maxAttempts ?? 12,
    retryBaseMs: options.retryBaseMs ?? 500,
    retryMaxMs: options.retryMaxMs ?? 30_000,
    skipped: options.skipped,
    parking: options.parking,
    signal: controller.signal,
  });
  const done = poll(options, queue, controller.signal).then(async () => {
    await queue.settle();
  });
  return {
    done,
    async stop() {
      controller.abort();
      await done;
    },
  };
}

type PollQueue = ReturnType<typeof createPollQueue>;

/** Fetches, hands the updates to the queue and moves the offset, until `signal` aborts. */
async function poll(options: PollerOptions, queue: PollQueue, signal: AbortSignal): Promise<void> {
  const busyPollMs = options.busyPollMs ?? 100;
  const minEmptyPollMs = options.minEmptyPollMs ?? 1000;
  const limit = options.limit ?? 100;
  let offset = 0;
  while (!signal.aborted) {
    await queue.loadParked();
    const polledAt = performance.now();
    const updates = await fetchUpdates(options, { offset, limit, busy: queue.busy() }, signal);
    if (updates === "aborted") return;
    if (updates === "failed") {
      await pause(signal, 1000);
      continue;
    }
    const fresh = updates.filter((update) => queue.add(update)).length;
    queue.startRunnable();
    // A full batch with nothing new: nothing newer can be fetched until the offset moves. Park
    // what keeps failing, and what waits for it.
    if (updates.length >= limit && fresh === 0) await queue.parkStuck();
    offset = queue.offset(Math.max(offset - 1, ...updates.map((u) => u.update_id)));
    if (queue.busy()) await pause(signal, busyPollMs);
    else if (updates.length === 0)
      await pause(signal, Math.max(0, minEmptyPollMs - (performance.now() - polledAt)));
  }
}

/** One getUpdates; a failure is logged (unless the poller is stopping) and said, not thrown. */
async function fetchUpdates(
  options: PollerOptions,
  at: { offset: number; limit: number; busy: boolean },
  signal: AbortSignal,
): Promise<Update[] | "aborted" | "failed"> {
  try {
    return await options.api.getUpdates(
      {
        offset: at.offset,
        limit: at.limit,
        // While updates are unfinished Telegram answers at once (it hands them out again).
        timeout: at.busy ? 0 : (options.timeoutSeconds ?? 15),
        allowed_updates: options.allowedUpdates as never,
      },
      // grammY types the signal with its fetch shim's AbortSignal; Node's own is what it gets.
      signal as Parameters<Api["getUpdates"]>[1],
    );
  } catch (error) {
    if (signal.aborted) return "aborted";
    options.logger.warn({ err: loggableError(error) }, "getUpdates failed; retrying");
    return "failed";
  }
}

// The abort listener goes when the timer fires: a poller that waits for a payment through a long
// outage pauses thousands of times and must not pile them up.
function pause(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const onAbort = () => (clearTimeout(timer), resolve());
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms).unref();
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
