// Redis Sentinel failover and what it does to locks (acceptance, issue 8). Real redis-server and
// redis-sentinel processes on loopback ports; the apps' own client (createRedisFromConfig with
// REDIS_SENTINELS) and lock manager; a real PostgreSQL test database.
//
// Replication is asynchronous: a lock the master acknowledged but had not yet sent to its replica
// is lost when the replica is promoted, and the lock can be granted again while its first holder
// is still working. Strict mode (WAIT for a replica) refuses such a lock instead. Either way the
// order stays correct, because the database decides with conditional updates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@orderbot/testkit";
import { LeaseLostError, strictReplication, type LockManagerOptions } from "@orderbot/lock";
import {
  createRedisFromConfig,
  replicationFromConfig,
  waitForRedis,
  type RedisClient,
} from "@orderbot/platform";
import { eventually } from "./support/eventually.ts";
import { acquireWhenReachable, lockManager } from "./support/locks.ts";
import {
  CANCELLED_ONCE,
  cancelOrder,
  createReservedOrder,
  orderFacts,
  PAID_ONCE,
  payOrder,
} from "./support/orders.ts";
import { MASTER_NAME, startSentinelTopology, type SentinelTopology } from "./support/sentinel.ts";

let testDb: TestDatabase;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await testDb?.drop();
});

async function topology(): Promise<SentinelTopology> {
  const started = await startSentinelTopology();
  cleanups.push(() => started.dispose());
  return started;
}

/** One app instance: the Redis client the apps build from REDIS_SENTINELS, and a lock manager on it. */
async function instance(
  sentinel: SentinelTopology,
  name: string,
  options: Partial<LockManagerOptions> = {},
) {
  const redis = createRedisFromConfig(sentinel.config, { connectionName: name });
  redis.on("error", () => {}); // reconnects are expected during a failover
  const locks = lockManager(redis, options);
  cleanups.push(async () => {
    await locks.close();
    redis.disconnect();
  });
  await waitForRedis(redis, 10_000);
  return { redis, locks };
}

/** Until the client, following Sentinel, talks to the server on `port`. */
function connectedTo(redis: RedisClient, port: number) {
  return eventually(`the client to follow the failover to port ${port}`, async () =>
    (await redis.info("server")).includes(`tcp_port:${port}\r\n`) ? true : undefined,
  );
}

describe("Sentinel failover", () => {
  it("without strict mode, a lock written just before the failover is granted twice; the order stays correct", async () => {
    const sentinel = await topology();
    const a = await instance(sentinel, "instance-a");
    const b = await instance(sentinel, "instance-b");
    // The apps found the master with the sentinels' password; without it nobody can ask the
    // sentinels or change what they monitor (and so point every app at a master of their own).
    const stranger = sentinel.direct(sentinel.sentinelPorts[0]!);
    await expect(stranger.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME)).rejects.toThrow(
      /NOAUTH/,
    );
    await expect(
      stranger.call("SENTINEL", "SET", MASTER_NAME, "down-after-milliseconds", "1"),
    ).rejects.toThrow(/NOAUTH/);
    const order = await createReservedOrder(testDb.db);
    const resource = { kind: "order", id: order.orderId };

    // Replication stalls (a partition, a slow replica): what the master acknowledges now stays on the master.
    sentinel.link.partition();
    const first = await a.locks.acquire(resource);
    if (!first.ok) throw new Error("the first acquisition should succeed");
    const leaseA = first.lease;
    expect(await sentinel.direct(sentinel.master.port).get(leaseA.key)).toBe(leaseA.token);
    expect(await sentinel.direct(sentinel.replica.port).exists(leaseA.key)).toBe(0);

    // The master dies before the write replicates; the sentinels promote the replica.
    await sentinel.failover();
    await connectedTo(b.redis, sentinel.replica.port);

    const second = await acquireWhenReachable(b.locks, resource);
    if (!second.ok)
      throw new Error("without strict mode the lost lock is free on the promoted replica");
    // Granted twice: A's lease still had most of its 30 s to run.
    expect(Date.now()).toBeLessThan(leaseA.expiresAt - 10_000);
    expect(second.lease.token).not.toBe(leaseA.token);
    // The fencing counter was lost with the write too. The lock module seeds a missing counter
    // from the server's clock, so B's fence is still the larger one (while the servers' clocks
    // agree): a resource that checked fences could refuse A's late writes.
    expect(second.lease.fence).toBeGreaterThan(leaseA.fence);
    // The lock module did warn A (its connection dropped with the master), but A may already be
    // past its last check, in the middle of its commit.
    expect(leaseA.signal.aborted).toBe(true);
    expect(leaseA.signal.reason).toBeInstanceOf(LeaseLostError);

    // Both holders act on the order at once: A confirms a payment, B cancels. The conditional
    // transition lets exactly one of them through, and it is applied once.
    const [paid, cancelled] = await Promise.all([
      payOrder(testDb.db, order, "charge-a"),
      cancelOrder(testDb.db, order),
    ]);
    expect([paid, cancelled].sort()).toEqual(["lost", "won"]);
    const facts = await orderFacts(testDb.db, order);
    expect(facts).toMatchObject(paid === "won" ? PAID_ONCE : CANCELLED_ONCE);
    expect(facts.version).toBe(1);
  });

  it("a promoted replica whose fence counter is behind still hands out a larger fence", async () => {
    const sentinel = await topology();
    const a = await instance(sentinel, "fence-a");
    const b = await instance(sentinel, "fence-b");
    const resource = { kind: "order", id: "fenced-resource" };
    const cycle = async () => {
      const held = await a.locks.acquire(resource);
      if (!held.ok) throw new Error("the lock should be free");
      await held.lease.release();
      return held.lease;
    };

    // Healthy replication: the replica has the counter as it stood then.
    const before = await cycle();
    const fenceKey = `${before.key}:fence`;
    await eventually("the counter to reach the replica", async () =>
      (await sentinel.direct(sentinel.replica.port).get(fenceKey)) === String(before.fence)
        ? true
        : undefined,
    );

    // Replication stalls; the master hands out more fences, which the replica never sees.
    sentinel.link.partition();
    let last = before;
    for (let i = 0; i < 5; i++) last = await cycle();
    expect(last.fence).toBeGreaterThan(before.fence);
    const lagging = Number(await sentinel.direct(sentinel.replica.port).get(fenceKey));
    expect(lagging).toBe(before.fence); // present, and behind: not a missing counter

    // The master dies; the replica is promoted with its lagging counter. The next fence is seeded
    // from the larger of that counter and the server clock, so it is still above every fence the
    // old master handed out: a storage that checks fences refuses the old holders' late writes.
    await sentinel.failover();
    await connectedTo(b.redis, sentinel.replica.port);
    const after = await acquireWhenReachable(b.locks, resource);
    if (!after.ok) throw new Error("the lock should be free on the promoted replica");
    expect(after.lease.fence).toBeGreaterThan(last.fence);
    await after.lease.release();
  });

  it("strict mode refuses a lock no replica confirmed, and a confirmed lock survives the failover; the order stays correct", async () => {
    const sentinel = await topology();
    // What REDIS_WAIT_REPLICAS=1 and REDIS_WAIT_TIMEOUT_MS=200 configure.
    const replication = replicationFromConfig({
      ...sentinel.config,
      REDIS_WAIT_REPLICAS: 1,
      REDIS_WAIT_TIMEOUT_MS: 200,
    });
    expect(replication).toEqual({ replicas: 1, timeoutMs: 200 });
    const layers = { replication: strictReplication(replication!) };
    const a = await instance(sentinel, "strict-a", { layers });
    const b = await instance(sentinel, "strict-b", { layers });
    const order = await createReservedOrder(testDb.db);
    const resource = { kind: "order", id: order.orderId };

    // Healthy replication: the lock counts once the replica has it.
    const held = await a.locks.acquire(resource);
    if (!held.ok) throw new Error("the first acquisition should succeed");
    expect(await sentinel.direct(sentinel.replica.port).get(held.lease.key)).toBe(held.lease.token);

    // Replication cut: no replica confirms within 200 ms, so the lock is given back and refused.
    sentinel.link.partition();
    const other = await createReservedOrder(testDb.db);
    const otherResource = { kind: "order", id: other.orderId };
    await expect(a.locks.acquire(otherResource)).rejects.toMatchObject({
      name: "LockUnavailableError",
      reason: "replication",
    });
    expect(await sentinel.direct(sentinel.master.port).exists(a.locks.keyFor(otherResource))).toBe(
      0,
    );

    // The master dies; the confirmed lock is on the promoted replica, so it is not granted again.
    await sentinel.failover();
    await connectedTo(b.redis, sentinel.replica.port);
    expect(await acquireWhenReachable(b.locks, resource)).toMatchObject({
      ok: false,
      reason: "busy",
    });
    // The cost: with its only replica gone, the new master cannot confirm anything either.
    await expect(acquireWhenReachable(b.locks, otherResource)).rejects.toMatchObject({
      reason: "replication",
    });

    // A, the holder, confirms the payment; B's cancel, had it ignored the lock, loses at the database.
    expect(await payOrder(testDb.db, order, "charge-strict")).toBe("won");
    expect(await cancelOrder(testDb.db, order)).toBe("lost");
    expect(await orderFacts(testDb.db, order)).toMatchObject({ ...PAID_ONCE, version: 1 });
  });
});
