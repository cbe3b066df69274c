// Redis Cluster: a lock, its fence counter and its line share one hash slot, so the scripts that
// touch them together run on a cluster. Checked by computing CRC16 slots, and for real on a
// one-node cluster (a cluster-enabled redis-server owning all 16,384 slots).
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cluster, Redis } from "ioredis";
import type { LockManager, LockRedisClient } from "../src/index.ts";
import { layeredManager, quiet, sleep } from "./support.ts";
import { useOwnRedis } from "./use-shared-redis.ts";

const keySlot = createRequire(import.meta.url)("cluster-key-slot") as (key: string) => number;

describe("hash slots", () => {
  it("puts a lock, its fence counter and its line in the same slot, for any id", async () => {
    const redis = new Redis({ lazyConnect: true }); // never connects: keyFor is pure
    const locks = layeredManager(redis, "prod:shopbot");
    for (const resource of [
      { kind: "order", id: "ord_8f3a" },
      { kind: "order", id: 123 },
      { kind: "checkout", id: 7350123456n },
      { kind: "job", id: "expire-reservations" },
    ]) {
      const lock = locks.keyFor(resource);
      expect(lock.startsWith("{prod:shopbot:lock:")).toBe(true);
      const slot = keySlot(lock);
      expect(keySlot(`${lock}:fence`)).toBe(slot);
      expect(keySlot(`${lock}:queue`)).toBe(slot);
      expect(keySlot(`${lock}:tickets`)).toBe(slot);
    }
    // Different resources spread over the slots.
    const slots = new Set(
      Array.from({ length: 50 }, (_, i) => keySlot(locks.keyFor({ kind: "order", id: i }))),
    );
    expect(slots.size).toBeGreaterThan(40);
    redis.disconnect();
  });
});

describe("on a one-node Redis Cluster", () => {
  const server = useOwnRedis([
    "--cluster-enabled",
    "yes",
    "--cluster-config-file",
    "nodes.conf",
    "--cluster-announce-ip",
    "127.0.0.1",
  ]);
  let cluster: Cluster;
  let subscribers: Redis[] = [];
  let managers: LockManager[] = [];

  beforeAll(async () => {
    const admin = new Redis(server.url);
    await admin.cluster("ADDSLOTSRANGE", 0, 16383);
    for (let i = 0; i < 100 && !(await admin.cluster("INFO")).includes("cluster_state:ok"); i++)
      await sleep(50);
    admin.disconnect();
    cluster = quiet(
      new Cluster([{ host: "127.0.0.1", port: server.port }]) as unknown as Redis,
    ) as unknown as Cluster;
    subscribers = [new Redis(server.url), new Redis(server.url)];
    // A Cluster client's duplicate() takes other arguments: pass the subscriber in.
    managers = subscribers.map((subscriber) =>
      layeredManager(cluster as unknown as LockRedisClient, "cluster", { subscriber }),
    );
  });
  afterAll(async () => {
    for (const manager of managers) await manager.close();
    for (const subscriber of subscribers) subscriber.disconnect();
    cluster?.disconnect();
  });

  it("computes the same slot as the server, and runs acquire, extend, wait, hand-off and release", async () => {
    const [a, b] = managers as [LockManager, LockManager];
    const resource = { kind: "order", id: "o-cluster" };
    const key = a.keyFor(resource);
    expect(await cluster.cluster("KEYSLOT", key)).toBe(keySlot(key));
    expect(await cluster.cluster("KEYSLOT", `${key}:fence`)).toBe(keySlot(key));

    const first = await a.acquire(resource, { waitMs: 0 });
    if (!first.ok) throw new Error("must acquire");
    expect(await first.lease.extend(5000)).toBe(true);
    const waiting = b.acquire(resource, { waitMs: 5000 });
    while ((await cluster.zcard(`${key}:queue`)) === 0) await sleep(2);
    expect(await first.lease.release()).toBe("released");
    const second = await waiting;
    if (!second.ok) throw new Error("the waiter must get the lock");
    expect(second.lease.fence).toBeGreaterThan(first.lease.fence);
    expect(await second.lease.release()).toBe("released");
  });
});
