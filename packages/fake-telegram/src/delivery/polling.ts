// getUpdates as Telegram answers it: an offset confirms every update below it, a negative offset
// keeps only the last ones, limit is 1-100, and a long poll (timeout up to 50 s) returns as soon
// as an update arrives. A newer getUpdates ends an older one that is still waiting (409).
import { BotApiError, conflict } from "../errors.ts";
import type { Faults } from "../faults.ts";
import type { TgUpdate } from "../types.ts";
import type { QueuedUpdate, UpdateQueue } from "./queue.ts";

export const LONG_POLL_MAX_TIMEOUT_S = 50;

export interface GetUpdatesRequest {
  offset: number;
  limit: number;
  timeoutS: number;
  allowedUpdates?: string[];
  /** Fires when the client goes away: the poll ends quietly. */
  signal?: AbortSignal;
}

interface Waiter {
  wake: (error?: BotApiError) => void;
}

export class LongPoller {
  private waiter: Waiter | undefined;
  /** Updates already confirmed that a duplicate fault returns once more. */
  private duplicates: QueuedUpdate[] = [];

  constructor(
    private readonly queue: UpdateQueue,
    private readonly faults: Faults,
  ) {}

  async getUpdates(request: GetUpdatesRequest): Promise<TgUpdate[]> {
    this.waiter?.wake(
      conflict(
        "terminated by other getUpdates request; make sure that only one bot instance is running",
      ),
    );
    this.confirm(request.offset);
    if (request.allowedUpdates !== undefined) this.queue.allowedUpdates = request.allowedUpdates;
    let batch = this.collect(request.limit);
    const waits = request.timeoutS > 0 && !this.faults.pollsAnswerAtOnce();
    if (batch.length === 0 && waits && !request.signal?.aborted) {
      await this.wait(request.timeoutS * 1000, request.signal);
      batch = this.collect(request.limit);
    }
    return this.hand(batch);
  }

  /** Ends a waiting poll with no updates (the webhook was just set). */
  abort(): void {
    this.waiter?.wake();
  }

  private confirm(offset: number): void {
    const pending = this.queue.pending;
    if (offset < 0) {
      for (const queued of pending.slice(0, Math.max(0, pending.length + offset))) {
        this.queue.settle(queued, "dropped", "forgotten: a negative getUpdates offset skipped it");
      }
      return;
    }
    if (offset === 0) return;
    for (const queued of pending) {
      if (queued.update.update_id >= offset) break;
      queued.deliveredAt = Date.now();
      for (const attempt of queued.attempts) attempt.outcome ??= "ok";
      if (this.faults.duplicate()) this.duplicates.push(queued);
      this.queue.settle(queued, "delivered");
    }
  }

  private collect(limit: number): QueuedUpdate[] {
    const duplicates = this.duplicates.splice(0, limit);
    return [...duplicates, ...this.queue.pending.slice(0, limit - duplicates.length)];
  }

  private hand(batch: QueuedUpdate[]): TgUpdate[] {
    const now = Date.now();
    for (const queued of batch) {
      queued.attempts.push({
        n: queued.attempts.length + 1,
        via: "getUpdates",
        startedAt: now,
        finishedAt: now,
        ...(queued.status === "delivered" ? { duplicate: true, outcome: "ok" as const } : {}),
      });
    }
    return batch.map((queued) => queued.update);
  }

  private wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const finish = (error?: BotApiError): void => {
        clearTimeout(timer);
        unsubscribe();
        signal?.removeEventListener("abort", onAbort);
        if (this.waiter === waiter) this.waiter = undefined;
        if (error) reject(error);
        else resolve();
      };
      const onAbort = (): void => finish();
      const waiter: Waiter = { wake: finish };
      const timer = setTimeout(() => finish(), ms);
      timer.unref();
      const unsubscribe = this.queue.onEnqueue(() => finish());
      signal?.addEventListener("abort", onAbort);
      this.waiter = waiter;
    });
  }
}
