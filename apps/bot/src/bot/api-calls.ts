import { autoRetry } from "@grammyjs/auto-retry";
import type { Api } from "grammy";
import { withDeadline } from "@orderbot/platform";

/** A group reply's booking hides its row from the relay this much longer than the call may take. */
export const IN_FLIGHT_MARGIN_MS = 10_000;

/**
 * Bounds the bot's Bot API calls: 429s and 5xx are retried (after their retry_after) a few times,
 * and every call settles within `deadlineMs` whatever the retries do. Network errors and timeouts
 * are not retried here: Telegram may have acted on the call, and the caller (the update's
 * re-delivery, the poller, the relay) retries it where that is safe. Install it before any
 * transformer that relies on "the call has failed by now" (group-replies.ts).
 */
export function boundApiCalls(api: Api, deadlineMs: number): void {
  api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 5, rethrowHttpErrors: true }));
  // grammY types signals with its fetch shim's AbortSignal; Node's own is what they are.
  api.config.use((prev, method, payload, signal) =>
    withDeadline(deadlineMs, method, (s) => prev(method, payload, s as never), signal as never),
  );
}

/** The long poll's timeout (s): an empty getUpdates must come back well before the call's deadline. */
export function longPollSeconds(deadlineMs: number): number {
  return Math.max(0, Math.min(15, Math.floor(deadlineMs / 1000) - 5));
}
