// Manager options, checked once and completed with defaults. Every problem is a LockInputError
// thrown by createLockManager, before any connection is used.
import { LockInputError } from "./errors.ts";
import { checkNamespace } from "./keys.ts";
import type { LockKindConfig, LockManagerOptions, OutagePolicy } from "./types.ts";

const POLICIES: readonly OutagePolicy[] = ["refuse", "proceed-db-only", "skip"];
const KIND_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
/** The longest wait we accept: waiting without a bound is one of the six classic mistakes. */
export const MAX_WAIT_MS = 5 * 60_000;

export interface ResolvedConfig {
  namespace: string;
  kinds: Map<string, LockKindConfig>;
  hashKey: string;
  commandTimeoutMs: number;
  breaker: { failureThreshold: number; coolDownMs: number };
  replication: { replicas: number; timeoutMs: number } | undefined;
  ttlBounds: { minMs: number; maxMs: number };
  safetyMarginMs: (ttlMs: number) => number;
  fenceRetentionMs: number;
  backoff: { baseMs: number; maxMs: number };
}

/** The longest delay a Node.js timer takes; a longer one fires after 1 ms. */
const TIMER_MAX_MS = 2_147_483_647;

export function positiveInt(
  value: unknown,
  field: string,
  { zero = false, max = Number.MAX_SAFE_INTEGER } = {},
): number {
  if (
    typeof value !== "number" ||
    !Number.isInteger(value) ||
    value < (zero ? 0 : 1) ||
    value > max
  ) {
    throw new LockInputError(
      `${field} must be an integer ${zero ? ">= 0" : "> 0"}${max < Number.MAX_SAFE_INTEGER ? ` and <= ${max}` : ""}, got ${String(value)}`,
      field,
    );
  }
  return value;
}

export function resolveConfig(options: LockManagerOptions): ResolvedConfig {
  if (!options || typeof options !== "object")
    throw new LockInputError("options are required", "options");
  if (!options.redis) throw new LockInputError("a Redis client is required", "redis");
  const namespace = checkNamespace(options.namespace);
  const ttlBounds = options.ttlBounds ?? { minMs: 100, maxMs: 10 * 60_000 };
  positiveInt(ttlBounds.minMs, "ttlBounds.minMs");
  positiveInt(ttlBounds.maxMs, "ttlBounds.maxMs", { max: TIMER_MAX_MS });
  if (ttlBounds.minMs > ttlBounds.maxMs)
    throw new LockInputError("ttlBounds.minMs must not exceed ttlBounds.maxMs", "ttlBounds");

  const kinds = new Map<string, LockKindConfig>();
  for (const [kind, config] of Object.entries(options.kinds ?? {})) {
    const field = `kinds.${kind}`;
    if (!KIND_NAME.test(kind))
      throw new LockInputError(`lock kind "${kind}" must be 1-64 letters, digits, - or _`, field);
    checkTtl(config.ttlMs, ttlBounds, `${field}.ttlMs`);
    positiveInt(config.waitMs, `${field}.waitMs`, { zero: true, max: MAX_WAIT_MS });
    if (!POLICIES.includes(config.outage))
      throw new LockInputError(
        `${field}.outage must be one of ${POLICIES.join(", ")}`,
        `${field}.outage`,
      );
    if (config.maxRenewals !== undefined)
      positiveInt(config.maxRenewals, `${field}.maxRenewals`, { zero: true });
    if (config.maxHoldMs !== undefined) positiveInt(config.maxHoldMs, `${field}.maxHoldMs`);
    if (config.fenceRetentionMs !== undefined)
      positiveInt(config.fenceRetentionMs, `${field}.fenceRetentionMs`);
    kinds.set(kind, config);
  }
  if (kinds.size === 0) throw new LockInputError("configure at least one lock kind", "kinds");
  if (typeof options.hashKey !== "string" || options.hashKey.length < 16) {
    throw new LockInputError(
      "hashKey must be a secret of at least 16 characters (it keys the HMAC of personal ids)",
      "hashKey",
    );
  }

  const breaker = options.breaker ?? { failureThreshold: 5, coolDownMs: 2000 };
  positiveInt(breaker.failureThreshold, "breaker.failureThreshold");
  positiveInt(breaker.coolDownMs, "breaker.coolDownMs", { max: TIMER_MAX_MS });
  const replication = options.replication;
  if (replication) {
    positiveInt(replication.replicas, "replication.replicas");
    positiveInt(replication.timeoutMs, "replication.timeoutMs", { max: TIMER_MAX_MS });
  }
  const backoff = options.backoff ?? { baseMs: 20, maxMs: 500 };
  positiveInt(backoff.baseMs, "backoff.baseMs");
  positiveInt(backoff.maxMs, "backoff.maxMs", { max: TIMER_MAX_MS });
  const margin = options.safetyMarginMs;
  if (margin !== undefined) positiveInt(margin, "safetyMarginMs", { zero: true });
  const safetyMarginMs =
    margin === undefined ? (ttl: number) => Math.ceil(ttl / 10) + 5 : () => margin;
  // A lease's signal aborts its margin before the expiry, and the watchdog renews after a third of
  // the TTL: a margin above half the shortest TTL would abort leases before they could be renewed.
  if (safetyMarginMs(ttlBounds.minMs) > ttlBounds.minMs / 2) {
    throw new LockInputError(
      `the safety margin (${safetyMarginMs(ttlBounds.minMs)} ms) must be at most half of ttlBounds.minMs (${ttlBounds.minMs} ms)`,
      margin === undefined ? "ttlBounds.minMs" : "safetyMarginMs",
    );
  }

  return {
    namespace,
    kinds,
    hashKey: options.hashKey,
    commandTimeoutMs: positiveInt(options.commandTimeoutMs ?? 1000, "commandTimeoutMs", {
      max: TIMER_MAX_MS,
    }),
    breaker,
    replication,
    ttlBounds,
    safetyMarginMs,
    fenceRetentionMs: positiveInt(options.fenceRetentionMs ?? 3_600_000, "fenceRetentionMs"),
    backoff,
  };
}

export function checkTtl(
  ttlMs: unknown,
  bounds: { minMs: number; maxMs: number },
  field = "ttlMs",
): number {
  if (
    typeof ttlMs !== "number" ||
    !Number.isInteger(ttlMs) ||
    ttlMs < bounds.minMs ||
    ttlMs > bounds.maxMs
  ) {
    throw new LockInputError(
      `${field} must be an integer between ${bounds.minMs} and ${bounds.maxMs} ms, got ${String(ttlMs)}`,
      field,
    );
  }
  return ttlMs;
}
