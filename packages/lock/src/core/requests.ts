// Input checks: the manager's options once, each acquire's resource and options on every call;
// any problem is a LockInputError before a Redis command is sent. And the key layout:
//   {ns:lock:kind:id}        the lock (value: the holder's random token)
//   {ns:lock:kind:id}:fence  its fencing counter (same hash tag, so the same Cluster slot)
// A `personal` kind's id is `h.` + an HMAC of it: stable per person, unreadable without the key.
import { createHmac, randomBytes } from "node:crypto";
import { LockInputError } from "./types.ts";
import type * as T from "./types.ts";

/** The longest wait accepted: a wait without a bound is one of the classic mistakes.
 * @example { order: { ttlMs: 5000, waitMs: Math.min(wait, MAX_WAIT_MS) } } */
export const MAX_WAIT_MS = 5 * 60_000;
const TIMER_MAX_MS = 2_147_483_647; // a longer Node.js timer fires after 1 ms
/** Of every TTL. The lease signal aborts ttl/10 + 5 ms before expiry: after the first renewal. */
export const TTL_MS = { min: 100, max: 600_000 };
export const marginFor = (ttlMs: number) => Math.ceil(ttlMs / 10) + 5;
export const FENCE_RETENTION_MS = 3_600_000; // unless the kind says: fences outlive their lock 1 h
const SEGMENT = /^[\x21-\x7a\x7c\x7e]{1,200}$/; // printable, no space, no brace (it moves the hash tag)
const KIND = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

// 144 random bits (CSPRNG) as 24 base64url characters, cut from a 4 KiB pool (README, Speed).
let pool = "";
export function newToken(): string {
  if (pool.length === 0) pool = randomBytes(18 * 228).toString("base64url");
  const token = pool.slice(0, 24);
  pool = pool.slice(24);
  return token;
}

function check(ok: boolean, field: string, message: string): void {
  if (!ok) throw new LockInputError(message, field);
}

export function int(value: unknown, field: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  const ok = typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
  check(ok, field, `${field} must be an integer from ${min} to ${max}, got ${String(value)}`);
  return value as number;
}

/** `int`, or undefined when not given. */
const optional = (value: number | undefined, field: string, min: number) =>
  value === undefined ? undefined : int(value, field, min);

export type Config = ReturnType<typeof checkOptions>;

export function checkOptions(options: T.LockManagerOptions) {
  check(!!options?.redis, "redis", "a Redis client is required");
  // A wrong shape (node-redis names it evalSha) would fail every call like an outage would.
  const client = options.redis as unknown as Record<string, unknown>;
  const shaped = ["evalsha", "eval", "on", "off"].every((m) => typeof client[m] === "function");
  check(shaped, "redis", "the Redis client must have evalsha, eval, on and off (as ioredis has)");
  const { namespace, hashKey } = options;
  const ns =
    'namespace must be 1-200 printable characters without spaces or braces, e.g. "prod:shopbot"';
  check(typeof namespace === "string" && SEGMENT.test(namespace), "namespace", ns);
  // ":lock:" then ends the namespace in every key: "p" + "lock" + "x:1" never meets "p:lock" + "x" + "1".
  const free = !namespace.split(":").includes("lock");
  check(free, "namespace", 'namespace must not have a part "lock" (it separates the key\'s parts)');
  const secret = typeof hashKey === "string" && hashKey.length >= 16;
  check(secret, "hashKey", "hashKey must be a secret of at least 16 characters");
  const kinds = new Map(Object.entries(options.kinds ?? {}));
  check(kinds.size > 0, "kinds", "configure at least one lock kind");
  for (const [kind, c] of kinds) {
    const at = `kinds.${kind}`;
    check(KIND.test(kind), at, `lock kind "${kind}" must be 1-64 letters, digits, - or _`);
    int(c.ttlMs, `${at}.ttlMs`, TTL_MS.min, TTL_MS.max);
    int(c.waitMs, `${at}.waitMs`, 0, MAX_WAIT_MS);
    for (const cap of ["maxRenewals", "maxHoldMs", "fenceRetentionMs"] as const)
      optional(c[cap], `${at}.${cap}`, cap === "maxRenewals" ? 0 : 1);
  }
  const clock = options.clock === undefined || typeof options.clock === "function";
  check(clock, "clock", "clock must be a function returning monotonic milliseconds");
  const timeout = int(options.commandTimeoutMs ?? 1000, "commandTimeoutMs", 1, TIMER_MAX_MS);
  return { namespace, hashKey, kinds, commandTimeoutMs: timeout };
}

export function kindOf(config: Config, kind: unknown): T.LockKindConfig {
  const found = typeof kind === "string" ? config.kinds.get(kind) : undefined;
  if (found) return found;
  const known = [...config.kinds.keys()].join(", ");
  throw new LockInputError(`unknown lock kind "${String(kind)}" (configured: ${known})`, "kind");
}

/** `maskedId`: the id as it appears in the key (hashed when personal), safe to log. */
export function keysOf(config: Config, resource: T.LockResource) {
  check(!!resource && typeof resource === "object", "resource", "resource must be { kind, id }");
  const { kind, id } = resource;
  const personal = kindOf(config, kind).personal;
  if (typeof id === "number")
    check(Number.isSafeInteger(id), "id", `lock id must be a safe integer, got ${id}`);
  else if (typeof id !== "bigint") {
    const text =
      "lock id must be a number, a bigint or 1-200 printable characters without spaces or braces";
    check(typeof id === "string" && SEGMENT.test(id), "id", text);
  }
  const hmac = () =>
    createHmac("sha256", config.hashKey).update(`${kind}\0${id}`).digest("base64url");
  const maskedId = personal ? `h.${hmac().slice(0, 27)}` : String(id);
  const lock = `{${config.namespace}:lock:${kind}:${maskedId}}`;
  return { lock, fence: `${lock}:fence`, maskedId };
}

/** One checked acquire request. */
export type LockRequest = ReturnType<typeof requestOf>;

export function requestOf(
  config: Config,
  resource: T.LockResource,
  options: T.WithLockOptions,
  metrics: T.KindMetrics,
) {
  check(!!options && typeof options === "object", "options", "options must be an object");
  const keys = keysOf(config, resource);
  const kind = kindOf(config, resource.kind);
  const { signal, requestId } = options;
  const aSignal = signal === undefined || signal instanceof AbortSignal;
  check(aSignal, "signal", "signal must be an AbortSignal");
  const anId =
    requestId === undefined || (typeof requestId === "string" && requestId.length <= 128);
  check(anId, "requestId", "requestId must be a string of at most 128 characters");
  return {
    kind: resource.kind,
    keys,
    metrics,
    ttlMs: int(options.ttlMs ?? kind.ttlMs, "ttlMs", TTL_MS.min, TTL_MS.max),
    waitMs: int(options.waitMs ?? kind.waitMs, "waitMs", 0, MAX_WAIT_MS),
    fenceRetentionMs: kind.fenceRetentionMs ?? FENCE_RETENTION_MS,
    maxRenewals: optional(options.maxRenewals ?? kind.maxRenewals, "maxRenewals", 0), // keepAlive's
    maxHoldMs: optional(options.maxHoldMs ?? kind.maxHoldMs, "maxHoldMs", 1), // hold caps
    signal,
    requestId,
  };
}
