import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffMs, decide, policyFor, type RetryPolicy } from "../../src/outbox/retry.ts";

const policy: RetryPolicy = { maxAttempts: 5, baseMs: 1000, maxMs: 60_000 };

describe("retry decisions", () => {
  it("marks a successful call sent", () => {
    expect(decide({ kind: "ok" }, 1, policy)).toEqual({ action: "sent" });
  });

  it("retries a 429 after exactly its retry_after, without counting the attempt, however many came before", () => {
    expect(decide({ kind: "rate-limited", retryAfterMs: 7000, error: "429" }, 5, policy)).toEqual({
      action: "retry",
      delayMs: 7000,
      counts: false,
      error: "429",
    });
  });

  it("retries a 5xx with backoff until the last attempt, then dead-letters it", () => {
    const retry = decide({ kind: "transient", error: "500" }, 4, policy, () => 0);
    expect(retry).toEqual({ action: "retry", delayMs: 4000, counts: true, error: "500" });
    expect(decide({ kind: "transient", error: "500" }, 5, policy)).toEqual({
      action: "dead",
      error: "500",
    });
  });

  it("retries a refund owed on a 5xx however many attempts failed, capped in delay; a refusal still dead-letters it", () => {
    const refunds = policyFor("refundStarPayment", policy);
    expect(decide({ kind: "transient", error: "500" }, 1_000, refunds, () => 0)).toEqual({
      action: "retry",
      delayMs: policy.maxMs / 2,
      counts: true,
      error: "500",
    });
    expect(
      decide({ kind: "permanent", code: 400, error: "400: CHARGE_NOT_FOUND" }, 1, refunds),
    ).toMatchObject({ action: "dead" });
    expect(policyFor("sendMessage", policy)).toBe(policy);
  });

  it("dead-letters a request Telegram refuses for good at once", () => {
    expect(
      decide({ kind: "permanent", code: 400, error: "400: chat not found" }, 1, policy),
    ).toEqual({ action: "dead", error: "400: chat not found" });
  });

  it("backs off exponentially with jitter: within [half, full] of base*2^(n-1), capped", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const full = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
          const delay = backoffMs(attempt, policy, () => r);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(full / 2));
          expect(delay).toBeLessThanOrEqual(full);
        },
      ),
    );
    expect(backoffMs(1, policy, () => 0)).toBe(500);
    expect(backoffMs(3, policy, () => 0.999999)).toBe(4000);
    expect(backoffMs(30, policy, () => 0)).toBe(30_000);
  });
});
