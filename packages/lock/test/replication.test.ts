// Strict mode for replicated Redis (Sentinel setups): after acquiring, WAIT for N replicas within
// a bound; if too few acknowledge, the lock is given back and the caller gets "unavailable".
// Real processes: a primary and one replica of its own.
import { afterAll, beforeAll, expect, it } from "vitest";
import { Redis } from "ioredis";
import type { RedisServer } from "./redis.ts";
import { LockUnavailableError } from "../src/index.ts";
import { fastClient, layeredManager, ownRedis, ready, sleep } from "./support.ts";

let primary: RedisServer;
let replica: RedisServer;
let redis: Redis;

beforeAll(async () => {
  primary = await ownRedis(["--repl-diskless-sync-delay", "0"]);
  replica = await ownRedis(["--replicaof", "127.0.0.1", String(primary.port)]);
  redis = fastClient(primary.url);
  await ready(redis);
  // Acknowledging, not just connected or even "online": right after its first sync a replica
  // answers no WAIT until its first periodic acknowledgement, up to a second later (seen here: 0 of
  // 1 replicas for about 900 ms). So the set-up waits until a WAIT succeeds.
  for (let i = 0; i < 100; i++) {
    await redis.set(`{${primary.port}}:warm-up`, String(i));
    if ((await redis.wait(1, 100)) >= 1) break;
  }
  const replicaClient = new Redis(replica.url);
  for (
    let i = 0;
    i < 200 && !(await replicaClient.info("replication")).includes("master_link_status:up");
    i++
  )
    await sleep(25);
  replicaClient.disconnect();
});
afterAll(async () => {
  redis.disconnect();
  await replica.dispose();
  await primary.dispose();
});

/** What the replica holds at `key`, read on a connection of its own. */
async function onReplica(key: string): Promise<string | null> {
  const client = new Redis(replica.url);
  try {
    return await client.get(key);
  } finally {
    client.disconnect();
  }
}

it("holds the lock once a replica acknowledged it", async () => {
  const locks = layeredManager(redis, "strict", { replication: { replicas: 1, timeoutMs: 500 } });
  const result = await locks.acquire({ kind: "order", id: "replicated" }, { waitMs: 0 });
  if (!result.ok) throw new Error("must acquire");
  expect(await onReplica(result.lease.key)).toBe(result.lease.token);
  expect(await result.lease.release()).toBe("released");
  await locks.close();
});

it("gives the lock back and reports unavailable when too few replicas acknowledge in time", async () => {
  const locks = layeredManager(redis, "strict", { replication: { replicas: 2, timeoutMs: 100 } });
  const resource = { kind: "order", id: "under-replicated" };
  const error = await locks.acquire(resource, { waitMs: 0 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LockUnavailableError);
  expect((error as LockUnavailableError).reason).toBe("replication");
  expect(await redis.exists(locks.keyFor(resource))).toBe(0);
  expect(locks.stats()).toMatchObject({ leases: 0, breaker: "closed" }); // too few replicas is not an outage of the primary
  expect(await locks.withLock(resource, async () => "never")).toEqual({ status: "unavailable" });
  await locks.close();
});

it("confirms a lock handed over by another client's release on a replica before the waiter gets it", async () => {
  const holderClient = fastClient(primary.url);
  await ready(holderClient);
  const holderLocks = layeredManager(holderClient, "strict");
  const waiterLocks = layeredManager(redis, "strict", {
    replication: { replicas: 1, timeoutMs: 500 },
  });
  const resource = { kind: "order", id: "handed-strict" };
  const held = await holderLocks.acquire(resource, { waitMs: 0 });
  if (!held.ok) throw new Error("must acquire");
  const waiting = waiterLocks.acquire(resource, { waitMs: 5000 });
  while ((await redis.zcard(`${held.lease.key}:queue`)) < 1) await sleep(2);
  expect(await held.lease.release()).toBe("released");
  const result = await waiting;
  if (!result.ok) throw new Error("must be handed the lock");
  expect(await onReplica(result.lease.key)).toBe(result.lease.token);
  expect(await result.lease.release()).toBe("released");
  await waiterLocks.close();
  await holderLocks.close();
  holderClient.disconnect();
});

/** Runs `fn` while the replica is frozen (SIGSTOP), then thaws it and waits until it acknowledges again. */
async function whileFrozen<T>(fn: () => Promise<T>): Promise<T> {
  replica.pause();
  try {
    return await fn();
  } finally {
    replica.resume();
    while ((await redis.wait(1, 100)) < 1) await redis.set(`{${primary.port}}:thawed`, "1");
  }
}

it("keeps renewing a held lease while a frozen replica holds up other acquires' WAITs", async () => {
  const locks = layeredManager(redis, "strict", { replication: { replicas: 1, timeoutMs: 300 } });
  const outcome = await locks.withLock(
    { kind: "order", id: "renewed-beside-waits" },
    ({ signal }) =>
      whileFrozen(async () => {
        const others = Array.from({ length: 8 }, (_, i) =>
          locks
            .acquire({ kind: "order", id: `other-${i}` }, { waitMs: 0 })
            .catch((e: unknown) => e),
        );
        const refused = await Promise.all(others);
        expect(refused.every((e) => e instanceof LockUnavailableError)).toBe(true);
        return signal.aborted; // the renewals, due every 400 ms, never queued behind a WAIT
      }),
    { ttlMs: 1200 },
  );
  expect(outcome).toMatchObject({ status: "ok", value: false });
  await locks.close();
});

it("never hands out a lease that ran out while its replica was slow to acknowledge it", async () => {
  const locks = layeredManager(redis, "strict", { replication: { replicas: 1, timeoutMs: 5000 } });
  const resource = { kind: "order", id: "born-lost" };
  let ran = false;
  const outcome = await whileFrozen(async () => {
    const running = locks.withLock(resource, async () => (ran = true), { ttlMs: 200 });
    while ((await redis.exists(locks.keyFor(resource))) === 0) await sleep(2); // acquired ...
    while ((await redis.exists(locks.keyFor(resource))) === 1) await sleep(5); // ... and expired
    return running; // the replica acknowledges once thawed: after the lease ran out
  });
  expect(outcome).toEqual({ status: "unavailable" });
  expect(ran).toBe(false);
  expect(locks.stats()).toMatchObject({ leases: 0 });
  await locks.close();
});
