// Redis Cluster and locks (acceptance, issue 8): a real three-master cluster on loopback ports,
// the apps' own client (createRedisFromConfig with REDIS_CLUSTER_NODES: ioredis' Cluster) and
// lock manager. Lock keys carry a hash tag, so a lock, its fence and its queue share one slot and
// the acquire script may touch all three; locks spread over every master; and a live resharding
// (ASK while a slot migrates, TRYAGAIN for multi-key scripts, MOVED once it has moved) is followed
// by the client without the lock module noticing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fairWaiting, type Lease, type LockSubscriberClient } from "@orderbot/lock";
import { Cluster, createRedisFromConfig, waitForRedis } from "@orderbot/platform";
import { eventually } from "./support/eventually.ts";
import { startLocalCluster, type ClusterNode, type LocalCluster } from "./support/cluster.ts";
import { lockManager } from "./support/locks.ts";

let cluster: LocalCluster;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  cluster = await startLocalCluster();
  cleanups.push(() => cluster.dispose());
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** One app instance: the client the apps build from REDIS_CLUSTER_NODES, a subscriber, a lock manager. */
async function instance(name: string) {
  const redis = createRedisFromConfig(cluster.config, { connectionName: name });
  const subscriber = createRedisFromConfig(cluster.config, { connectionName: `${name}-sub` });
  for (const client of [redis, subscriber]) client.on("error", () => {});
  const locks = lockManager(redis, {
    layers: { waiting: fairWaiting({ subscriber: subscriber as unknown as LockSubscriberClient }) },
  });
  cleanups.push(async () => {
    await locks.close();
    redis.disconnect();
    subscriber.disconnect();
  });
  await Promise.all([waitForRedis(redis, 10_000), waitForRedis(subscriber, 10_000)]);
  return { redis, locks };
}

/** Every key of the lock's slot on `node`: the lock and its companions, nothing else. */
async function keysBeside(node: ClusterNode, lease: Lease): Promise<string[]> {
  const slot = await cluster.slotOf(lease.key);
  return (await node.client.call("CLUSTER", "GETKEYSINSLOT", String(slot), "100")) as string[];
}

describe("Redis Cluster", () => {
  it("locks whose keys live in different slots, on every master, exclude each other and are released", async () => {
    const a = await instance("cluster-a");
    const b = await instance("cluster-b");
    expect(a.redis).toBeInstanceOf(Cluster);

    // One resource whose lock lands on each master.
    const idOnNode = new Map<ClusterNode, number>();
    for (let id = 1; idOnNode.size < cluster.nodes.length; id++) {
      const node = await cluster.ownerOf(
        await cluster.slotOf(a.locks.keyFor({ kind: "order", id })),
      );
      if (!idOnNode.has(node)) idOnNode.set(node, id);
    }

    const leases: Lease[] = [];
    for (const [node, id] of idOnNode) {
      const result = await a.locks.acquire({ kind: "order", id });
      if (!result.ok) throw new Error(`order ${id} should be free`);
      leases.push(result.lease);
      // The lock and its fencing counter were written by one script, in one slot, on this master.
      const beside = await keysBeside(node, result.lease);
      expect(beside).toContain(result.lease.key);
      expect(beside.length).toBeGreaterThanOrEqual(2);
      expect(beside.every((key) => key.startsWith(result.lease.key))).toBe(true);
      expect(await b.locks.acquire({ kind: "order", id })).toMatchObject({
        ok: false,
        reason: "busy",
      });
    }
    expect(new Set(await Promise.all(leases.map((l) => cluster.slotOf(l.key)))).size).toBe(3);

    for (const lease of leases) expect(await lease.release()).toBe("released");
    for (const id of idOnNode.values()) {
      const again = await b.locks.acquire({ kind: "order", id });
      if (!again.ok) throw new Error(`order ${id} should be free again`);
      expect(again.lease.fence).toBeGreaterThan(
        leases.find((l) => l.key === again.lease.key)!.fence,
      );
      await again.lease.release();
    }
  });

  it("a waiter is handed the lock when it is released, whichever node holds it", async () => {
    const a = await instance("wait-a");
    const b = await instance("wait-b");
    const resource = { kind: "order", id: 500 };
    const held = await a.locks.acquire(resource);
    if (!held.ok) throw new Error("should be free");
    const waiting = b.locks.acquire(resource, { waitMs: 10_000 });
    await eventually("B to be in line", async () =>
      b.locks.stats().waiters === 1 ? true : undefined,
    );
    expect(await held.lease.release()).toBe("released");
    const handed = await waiting;
    expect(handed.ok).toBe(true);
    if (handed.ok) await handed.lease.release();
  });

  it("follows ASK, TRYAGAIN and MOVED while the slot of a held lock migrates to another master", async () => {
    const a = await instance("resharding");
    const resource = { kind: "order", id: 1001 };
    const held = await a.locks.acquire(resource);
    if (!held.ok) throw new Error("should be free");
    const slot = await cluster.slotOf(held.lease.key);
    const from = await cluster.ownerOf(slot);
    const to = cluster.nodes.find((node) => node !== from)!;
    // Two more resources whose locks hash to the same slot.
    const inSlot = async (base: number) => ({
      kind: "order",
      id:
        base +
        (await cluster.findKeyInSlot(slot, (i) => a.locks.keyFor({ kind: "order", id: base + i }))),
    });
    const other = await inSlot(2000);
    const third = await inSlot(100_000);
    // An instance whose slot map is taken now, before the migration (ioredis refreshes it every 5 s).
    const late = await instance("stale-map");

    // The slot starts migrating, and the lock key moves first (its fence is still on `from`).
    await cluster.beginMigration(slot, from, to);
    await cluster.migrateKeys([held.lease.key], from, to);
    await expect(from.client.get(held.lease.key)).rejects.toThrow(/^ASK /);

    // ASK: `from` no longer has the key; the client repeats the owner-checked extend on `to`.
    const asks = await cluster.errorCount(from, "ASK");
    expect(await held.lease.extend(30_000)).toBe(true);
    expect(await cluster.errorCount(from, "ASK")).toBeGreaterThan(asks);

    // TRYAGAIN: acquiring `other` runs one script on three keys of the migrating slot, which Redis
    // refuses until the migration ends; the client retries until the slot has moved.
    const tryagains = await cluster.errorCount(to, "TRYAGAIN");
    const acquiring = a.locks.acquire(other);
    await eventually(
      "the client to be told TRYAGAIN",
      async () => ((await cluster.errorCount(to, "TRYAGAIN")) > tryagains ? true : undefined),
      5000,
      10,
    );
    await cluster.finishMigration(slot, from, to);
    const acquired = await acquiring;
    if (!acquired.ok) throw new Error("the other order's lock should be free");
    expect(await cluster.ownerOf(slot)).toBe(to);
    expect(await keysBeside(to, held.lease)).toEqual(
      expect.arrayContaining([held.lease.key, acquired.lease.key]),
    );

    // MOVED: the other instance's slot map still names `from`, which now points to `to`.
    const moves = await cluster.errorCount(from, "MOVED");
    const fromLate = await late.locks.acquire(third);
    if (!fromLate.ok) throw new Error("the third order's lock should be free");
    expect(await cluster.errorCount(from, "MOVED")).toBeGreaterThan(moves);
    expect(await late.locks.acquire(resource)).toMatchObject({ ok: false, reason: "busy" });

    for (const lease of [held.lease, acquired.lease, fromLate.lease])
      expect(await lease.release()).toBe("released");
    expect(await to.client.exists(held.lease.key, acquired.lease.key, fromLate.lease.key)).toBe(0);
  });
});
