import type { Api } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "@orderbot/platform";
import { loggableError } from "../log-safety.ts";
import { carriesMoney } from "./money-updates.ts";
import { chatIdOf } from "./parse.ts";
import { updateType, type ProcessUpdate } from "./pipeline.ts";

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
}

/** An update fetched and not finished yet. */
interface Pending {
  update: Update;
  chat: number | string;
  running: boolean;
  /** Failed attempts so far. */
  failures: number;
  /** Not to be run again before (ms, performance.now()): after a failure, or while in progress elsewhere. */
  notBefore: number;
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
 * "Updates that carry money").
 */
export function startPolling(options: PollerOptions): {
  stop(): Promise<void>;
  done: Promise<void>;
} {
  const { api, processUpdate, logger } = options;
  const maxAttempts = options.maxAttempts ?? 12;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  const busyPollMs = options.busyPollMs ?? 100;
  const minEmptyPollMs = options.minEmptyPollMs ?? 1000;
  const controller = new AbortController();
  /** Fetched and not finished, by update id (Telegram hands them out again until confirmed). */
  const pending = new Map<number, Pending>();
  /** Finished and not confirmed yet: handed out again until the offset passes them. */
  const finished = new Set<number>();
  const runs = new Set<Promise<void>>();
  let offset = 0;

  // The abort listener goes when the timer fires: a poller that waits for a payment through a long
  // outage pauses thousands of times and must not pile them up.
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const onAbort = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(() => {
        controller.signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms).unref();
      controller.signal.addEventListener("abort", onAbort, { once: true });
    });

  /** Whether an earlier update of the same chat is unfinished: this one must wait for it. */
  const blockedByEarlier = (p: Pending) =>
    [...pending.values()].some(
      (other) => other.chat === p.chat && other.update.update_id < p.update.update_id,
    );

  function finish(id: number): void {
    pending.delete(id);
    finished.add(id);
  }

  async function run(p: Pending): Promise<void> {
    const id = p.update.update_id;
    try {
      if ((await processUpdate(p.update)) === "in-progress") {
        p.notBefore = performance.now() + retryBaseMs;
        return;
      }
      finish(id);
    } catch {
      p.failures += 1;
      const money = carriesMoney(p.update);
      if (p.failures < maxAttempts || money) {
        p.notBefore = performance.now() + Math.min(retryMaxMs, retryBaseMs * 2 ** (p.failures - 1));
        // Said once per maxAttempts failures: loud enough to be seen, not a line per retry.
        if (money && p.failures % maxAttempts === 0)
          logger.error(
            { updateId: id, attempts: p.failures },
            "payment update still failing; retrying without limit (its chat's later updates wait)",
          );
        return;
      }
      const kind = updateType(p.update);
      logger.error(
        { updateId: id, updateType: kind, attempts: p.failures },
        "update skipped after repeated failures",
      );
      options.skipped?.inc({ kind });
      finish(id);
    } finally {
      p.running = false;
      startRunnable(); // its chat's next update, if it waited for this one
    }
  }

  /** Starts every pending update that is due and not waiting for an earlier one of its chat. */
  function startRunnable(): void {
    if (controller.signal.aborted) return;
    const now = performance.now();
    for (const p of [...pending.values()].sort((a, b) => a.update.update_id - b.update.update_id)) {
      if (p.running || p.notBefore > now || blockedByEarlier(p)) continue;
      p.running = true;
      const running = run(p);
      runs.add(running);
      void running.finally(() => runs.delete(running));
    }
  }

  async function loop(): Promise<void> {
    while (!controller.signal.aborted) {
      let updates: Update[];
      const polledAt = performance.now();
      try {
        updates = await api.getUpdates(
          {
            offset,
            // While updates are unfinished Telegram answers at once (it hands them out again).
            timeout: pending.size > 0 ? 0 : (options.timeoutSeconds ?? 15),
            allowed_updates: options.allowedUpdates as never,
          },
          // grammY types the signal with its fetch shim's AbortSignal; Node's own is what it gets.
          controller.signal as Parameters<Api["getUpdates"]>[1],
        );
      } catch (error) {
        if (controller.signal.aborted) return;
        logger.warn({ err: loggableError(error) }, "getUpdates failed; retrying");
        await pause(1000);
        continue;
      }
      for (const update of updates) {
        if (pending.has(update.update_id) || finished.has(update.update_id)) continue;
        const chat = chatIdOf(update) ?? `update:${update.update_id}`;
        pending.set(update.update_id, { update, chat, running: false, failures: 0, notBefore: 0 });
      }
      startRunnable();
      // Confirm everything before the first unfinished update; nothing after it.
      const fetched = Math.max(offset - 1, ...updates.map((u) => u.update_id), ...finished);
      offset = pending.size > 0 ? Math.min(...pending.keys()) : fetched + 1;
      for (const id of finished) if (id < offset) finished.delete(id);
      if (pending.size > 0) await pause(busyPollMs);
      else if (updates.length === 0)
        await pause(Math.max(0, minEmptyPollMs - (performance.now() - polledAt)));
    }
  }

  const done = loop().then(async () => {
    await Promise.allSettled([...runs]);
  });
  return {
    done,
    async stop() {
      controller.abort();
      await done;
    },
  };
}
