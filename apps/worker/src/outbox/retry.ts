/**
 * What to do after one delivery attempt, as a pure function of the attempt's result: mark it sent,
 * try again later (when, and whether the try counted), or give up (dead-letter it).
 */

/** The outcome of one Bot API call, classified (see classify.ts). */
export type SendResult =
  | { kind: "ok" }
  /** 429: Telegram says when to come back. Not the message's fault: it does not count as an attempt. */
  | { kind: "rate-limited"; retryAfterMs: number; error: string }
  /**
   * 401, or 404 on the method itself: Telegram refused the bot's token (revoked or mistyped). Not
   * the message's fault either: it waits, without counting, until an operator fixes the token.
   */
  | { kind: "unauthorized"; error: string }
  /** 5xx, a network error or a timeout: retry with exponential backoff and jitter. */
  | { kind: "transient"; error: string }
  /** 400 with migrate_to_chat_id: the group became a supergroup; the message goes there instead. */
  | { kind: "moved"; toChatId: bigint; error: string }
  /** Any other 4xx: the request itself is wrong (or the user blocked the bot); retrying cannot help. */
  | { kind: "permanent"; code: number; error: string };

export interface RetryPolicy {
  /** Attempts (failed sends) after which a message is dead. */
  maxAttempts: number;
  /** First backoff (ms); doubled per failed attempt. */
  baseMs: number;
  /** Backoff ceiling (ms). */
  maxMs: number;
}

/**
 * Calls that return money are never given up on a transient failure (5xx, network): a refund owed
 * stays owed, so it is retried, at most `maxMs` apart, until Telegram answers it. Only a refusal
 * (4xx) dead-letters it, for an operator.
 */
const UNTIL_ANSWERED: ReadonlySet<string> = new Set(["refundStarPayment"]);

/** The retry policy for a message's method: `policy`, without an attempt limit for money calls. */
export function policyFor(method: string, policy: RetryPolicy): RetryPolicy {
  return UNTIL_ANSWERED.has(method) ? { ...policy, maxAttempts: Infinity } : policy;
}

/** How long a message waits while Telegram refuses the bot's token. */
export const UNAUTHORIZED_RETRY_MS = 60_000;

export type Decision =
  | { action: "sent" }
  | { action: "retry"; delayMs: number; counts: boolean; error: string }
  | { action: "readdress"; toChatId: bigint; error: string }
  | { action: "dead"; error: string };

/**
 * "Equal jitter": half the exponential delay is fixed, half random. Fixed half keeps a flapping
 * API from being hammered; the random half keeps many messages from retrying in lockstep.
 */
export function backoffMs(
  attempt: number,
  policy: Pick<RetryPolicy, "baseMs" | "maxMs">,
  random: () => number = Math.random,
): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * @param attempts the message's attempts including this one (the claim counted it).
 */
export function decide(
  result: SendResult,
  attempts: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): Decision {
  switch (result.kind) {
    case "ok":
      return { action: "sent" };
    case "rate-limited":
      return { action: "retry", delayMs: result.retryAfterMs, counts: false, error: result.error };
    case "unauthorized":
      return {
        action: "retry",
        delayMs: UNAUTHORIZED_RETRY_MS,
        counts: false,
        error: result.error,
      };
    case "transient":
      if (attempts >= policy.maxAttempts) return { action: "dead", error: result.error };
      return {
        action: "retry",
        delayMs: backoffMs(attempts, policy, random),
        counts: true,
        error: result.error,
      };
    case "moved":
      return { action: "readdress", toChatId: result.toChatId, error: result.error };
    case "permanent":
      return { action: "dead", error: result.error };
  }
}
