// Redis out of reach, with a real redis-server process of the test's own that is stopped, paused
// and started again: typed errors, bounded timeouts, a breaker that fails fast and recovers, and
// the per-kind outage policies of withLock.
import { afterAll, beforeAll, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { LOCK_METRICS, LockUnavailableError, type LockManager } from "../src/index.ts";
import { counting, fastClient, layeredManager, quiet, ready } from "./support.ts";
import { useOwnRedis } from "./use-shared-redis.ts";

const server = useOwnRedis();
let redis: Redis;
let calls: string[];
let locks: LockManager;
let registry: Registry;

beforeAll(async () => {
  redis = fastClient(server.url);
  await ready(redis);
  const counted = counting(redis);
  calls = counted.calls;
  registry = new Registry();
  locks = layeredManager(counted.client, "outage", {
    registry,
    commandTimeoutMs: 200,
    breaker: { failureThreshold: 3, coolDownMs: 300 },
  });
});
afterAll(async () => {
  await locks.close();
  redis.disconnect();
});

const gauge = async () =>
  (await registry.getSingleMetric(LOCK_METRICS.breakerOpen)!.get()).values.find(
    (v) => v.labels.kind === "order",
  )?.value;

async function unavailable(promise: Promise<unknown>): Promise<LockUnavailableError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LockUnavailableError);
  return error as LockUnavailableError;
}

it("fails fast while Redis is down, opens the breaker, applies each kind's policy, and recovers once Redis is back", async () => {
  await server.stop();
  const started = performance.now();
  for (let i = 0; i < 3; i++) {
    const error = await unavailable(locks.acquire({ kind: "order", id: "o-1" }));
    expect(error.reason).toBe("connection");
    expect(error.cause).toBeInstanceOf(Error);
  }
  expect(performance.now() - started).toBeLessThan(200 * 3); // not one command timeout after another
  expect(locks.stats().breaker).toBe("open");
  expect(await gauge()).toBe(1);

  const sent = calls.length;
  const error = await unavailable(locks.acquire({ kind: "order", id: "o-1" }));
  expect(error.reason).toBe("breaker-open");
  expect(calls.length).toBe(sent); // nothing was sent

  // The outage policy of each kind, as data.
  const ran: string[] = [];
  expect(await locks.withLock({ kind: "order", id: "o-1" }, async () => ran.push("order"))).toEqual(
    {
      status: "unavailable",
    },
  );
  expect(await locks.withLock({ kind: "job", id: "expire" }, async () => ran.push("job"))).toEqual({
    status: "skipped",
  });
  const degraded = await locks.withLock({ kind: "update", id: 42 }, async ({ lease, signal }) => {
    ran.push(`update lease=${String(lease)} aborted=${signal.aborted}`);
    return "done on database guarantees";
  });
  expect(degraded).toEqual({
    status: "ok",
    value: "done on database guarantees",
    fence: null,
    degraded: true,
    lost: null,
  });
  expect(ran).toEqual(["update lease=null aborted=false"]);
  const degradedCounts = (await registry.getSingleMetric(LOCK_METRICS.degradedTotal)!.get()).values;
  expect(degradedCounts).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ labels: { kind: "job", policy: "skip" }, value: 1 }),
      expect.objectContaining({ labels: { kind: "update", policy: "proceed-db-only" }, value: 1 }),
    ]),
  );

  // Redis comes back; the client reconnects by itself, the breaker half-opens after its cool-down.
  await server.start();
  await ready(redis);
  await sleep(300);
  const result = await locks.acquire({ kind: "order", id: "o-1" });
  expect(result.ok).toBe(true);
  if (result.ok) expect(await result.lease.release()).toBe("released");
  expect(locks.stats().breaker).toBe("closed");
  expect(await gauge()).toBe(0);
});

it("bounds a command to its timeout when Redis hangs, and gives back a lock acquired too late", async () => {
  server.pause();
  let error: LockUnavailableError;
  try {
    const started = performance.now();
    error = await unavailable(locks.acquire({ kind: "order", id: "late" }));
    expect(performance.now() - started).toBeLessThan(900); // ours (200 ms), well before the client's own 1 s
  } finally {
    server.resume();
  }
  expect(error.reason).toBe("timeout");
  // The acquire reached Redis after all; the manager released what it no longer wanted.
  const key = locks.keyFor({ kind: "order", id: "late" });
  for (let i = 0; i < 100 && (await redis.exists(key)) === 1; i++) await sleep(10);
  expect(await redis.exists(key)).toBe(0);
  expect(locks.stats()).toMatchObject({ commandsInFlight: 0, leases: 0 });
});

it("gives back a lock acquired too late when the client's own command timeout fires first", async () => {
  // As in production, where the client's commandTimeout is the same setting as the manager's: the
  // client gives up first and drops the reply, so only a give-back sent at once can undo the acquire.
  const client = fastClient(server.url, { commandTimeout: 150 });
  await ready(client);
  const manager = layeredManager(client, "outage-client-timeout", { commandTimeoutMs: 400 });
  // Scripts loaded first: a NOSCRIPT round trip would not reach Redis before the pause.
  const warm = await manager.acquire({ kind: "order", id: "warm" });
  if (warm.ok) await warm.lease.release();
  const ids = ["tried-once", "waited"];
  server.pause();
  try {
    for (const [id, waitMs] of [
      [ids[0]!, 0],
      [ids[1]!, 5_000],
    ] as const) {
      const error = await unavailable(manager.acquire({ kind: "order", id }, { waitMs }));
      expect(error.reason).toBe("timeout");
    }
  } finally {
    server.resume();
  }
  try {
    for (const id of ids) {
      const key = manager.keyFor({ kind: "order", id });
      for (let i = 0; i < 100 && (await redis.exists(key)) === 1; i++) await sleep(10);
      expect(await redis.exists(key), id).toBe(0);
    }
    expect(manager.stats()).toMatchObject({ commandsInFlight: 0, leases: 0, waiters: 0 });
  } finally {
    await manager.close();
    client.disconnect();
  }
});

it("a closed manager is no outage: withLock refuses whatever the kind's policy, and runs nothing", async () => {
  const manager = layeredManager(redis, "outage"); // beside `locks`, which holds the lock this one waits for
  const ran: string[] = [];
  const closedError = { name: "LockUnavailableError", reason: "closed" };
  // Waiting for a held lock when the manager closes: the waiter must not run its work lockless.
  const holder = await locks.acquire({ kind: "update", id: "closing" }, { waitMs: 0 });
  if (!holder.ok) throw new Error("expected the lock");
  try {
    const waiting = manager.withLock(
      { kind: "update", id: "closing" },
      async () => ran.push("waited"),
      {
        waitMs: 5_000,
      },
    );
    await sleep(50);
    const refused = expect(waiting).rejects.toMatchObject(closedError);
    await manager.close();
    await refused;
  } finally {
    await holder.lease.release();
  }
  for (const kind of ["update", "job", "order"]) {
    await expect(
      manager.withLock({ kind, id: 1 }, async () => ran.push(kind)),
    ).rejects.toMatchObject(closedError);
  }
  expect(ran).toEqual([]);
});

it("bounds commands that a client would queue while offline", async () => {
  const queueing = quiet(new Redis(server.url, { retryStrategy: () => 50 })); // ioredis defaults: offline queue on
  await ready(queueing);
  const manager = layeredManager(queueing, "outage-q", { commandTimeoutMs: 150 });
  await server.stop();
  try {
    const error = await unavailable(manager.acquire({ kind: "order", id: "q" }));
    expect(error.reason).toBe("timeout");
  } finally {
    await server.start();
    await manager.close();
    queueing.disconnect();
  }
});

it("treats a client that throws a connection error instead of rejecting like one that cannot reach Redis: a rejection, never a throw", async () => {
  let broken = false;
  const own = fastClient(server.url);
  await ready(own);
  const client = new Proxy(own, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === "evalsha" && broken) {
        return () => {
          throw new Error("Connection is closed."); // a connection error, thrown synchronously
        };
      }
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  const manager = layeredManager(client, "outage-throw");
  try {
    const held = await manager.acquire({ kind: "order", id: "t" });
    if (!held.ok) throw new Error("expected the lock");
    broken = true;
    let released: Promise<unknown> | undefined;
    expect(() => (released = held.lease.release())).not.toThrow();
    expect((await unavailable(released!)).reason).toBe("connection");
    expect((await unavailable(manager.acquire({ kind: "order", id: "u" }))).reason).toBe(
      "connection",
    );
    expect(manager.stats()).toMatchObject({ commandsInFlight: 0, leases: 0 });
  } finally {
    broken = false;
    await manager.close();
    own.disconnect();
  }
});
