// Invalid input is a LockInputError thrown before any Redis command is sent.
import { describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { LockInputError, MAX_WAIT_MS, createLockManager } from "../src/index.ts";
import { counting, HASH_KEY, KINDS, withLayers, type TestManagerOptions } from "./support.ts";

const { client, calls } = counting(new Redis({ lazyConnect: true }));
const options: TestManagerOptions = {
  redis: client,
  namespace: "test:input",
  hashKey: HASH_KEY,
  kinds: KINDS,
  registry: new Registry(),
};
const locks = createLockManager(withLayers(options));

async function inputError(call: () => Promise<unknown>, field: string) {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LockInputError);
  expect((error as LockInputError).field).toBe(field);
  expect(calls).toEqual([]);
}

describe("acquire and withLock", () => {
  const order = { kind: "order", id: "o-1" };
  it.each([
    ["an unknown kind", () => locks.acquire({ kind: "ordr", id: 1 }), "kind"],
    ["an empty id", () => locks.acquire({ kind: "order", id: "" }), "id"],
    [
      "an id with a brace (it would move the hash tag)",
      () => locks.acquire({ kind: "order", id: "a}b" }),
      "id",
    ],
    ["an id with a space", () => locks.acquire({ kind: "order", id: "a b" }), "id"],
    [
      "a fractional or unsafe numeric id",
      () => locks.acquire({ kind: "order", id: 2 ** 60 }),
      "id",
    ],
    ["a TTL below the bounds", () => locks.acquire(order, { ttlMs: 10 }), "ttlMs"],
    ["a TTL above the bounds", () => locks.acquire(order, { ttlMs: 3_600_000 }), "ttlMs"],
    ["a negative wait", () => locks.acquire(order, { waitMs: -1 }), "waitMs"],
    ["an endless wait", () => locks.acquire(order, { waitMs: Number.POSITIVE_INFINITY }), "waitMs"],
    [
      "a wait 1 ms over the bound",
      () => locks.acquire(order, { waitMs: MAX_WAIT_MS + 1 }),
      "waitMs",
    ],
    [
      "withLock with a wait 1 ms over the bound",
      () => locks.withLock(order, async () => 1, { waitMs: MAX_WAIT_MS + 1 }),
      "waitMs",
    ],
    [
      "a signal that is not an AbortSignal",
      () => locks.acquire(order, { signal: {} as AbortSignal }),
      "signal",
    ],
    [
      "withLock with an unknown kind",
      () => locks.withLock({ kind: "nope", id: 1 }, async () => 1),
      "kind",
    ],
    [
      "withLock with a negative renewal cap",
      () => locks.withLock(order, async () => 1, { maxRenewals: -1 }),
      "maxRenewals",
    ],
    ["withLock with a bad TTL", () => locks.withLock(order, async () => 1, { ttlMs: 0 }), "ttlMs"],
  ])("rejects %s", async (_name, call, field) => inputError(call, field));

  it("keyFor rejects an id with a brace", () => {
    expect(() => locks.keyFor({ kind: "order", id: "{x}" })).toThrow(LockInputError);
  });
});

describe("createLockManager", () => {
  it.each([
    ["a namespace with a brace", { namespace: "prod:{shop}" }, "namespace"],
    // else "p:lock" + kind "x" + id "1" would be the key of "p" + kind "lock" + id "x:1"
    ['a namespace with a part "lock"', { namespace: "p:lock" }, "namespace"],
    ["no kinds", { kinds: {} }, "kinds"],
    ["a short hash key", { hashKey: "short" }, "hashKey"],
    [
      "an unknown outage policy",
      { kinds: { x: { ttlMs: 1000, waitMs: 0, outage: "ignore" as never } } },
      "kinds.x.outage",
    ],
    [
      "a kind TTL outside the bounds",
      { kinds: { x: { ttlMs: 5, waitMs: 0, outage: "refuse" as const } } },
      "kinds.x.ttlMs",
    ],
    [
      "a kind wait 1 ms over the bound",
      { kinds: { x: { ttlMs: 1000, waitMs: MAX_WAIT_MS + 1, outage: "refuse" as const } } },
      "kinds.x.waitMs",
    ],
    [
      "a kind fence retention of zero",
      { kinds: { x: { ttlMs: 1000, waitMs: 0, outage: "refuse" as const, fenceRetentionMs: 0 } } },
      "kinds.x.fenceRetentionMs",
    ],
    [
      "a kind name with a colon",
      { kinds: { "a:b": { ttlMs: 1000, waitMs: 0, outage: "refuse" as const } } },
      "kinds.a:b",
    ],
    [
      "a zero breaker threshold",
      { breaker: { failureThreshold: 0, coolDownMs: 100 } },
      "breaker.failureThreshold",
    ],
    [
      "a zero replica count",
      { replication: { replicas: 0, timeoutMs: 100 } },
      "replication.replicas",
    ],
    [
      "a replication timeout past the longest WAIT",
      { replication: { replicas: 1, timeoutMs: 2 ** 31 } },
      "replication.timeoutMs",
    ],
    [
      "a command timeout past what a timer can wait",
      { commandTimeoutMs: 2_500_000_000 },
      "commandTimeoutMs",
    ],
  ])("rejects %s", (_name, override, field) => {
    let error: unknown;
    try {
      createLockManager(withLayers({ ...options, ...override }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LockInputError);
    expect((error as LockInputError).field).toBe(field);
    expect(calls).toEqual([]);
  });
});
