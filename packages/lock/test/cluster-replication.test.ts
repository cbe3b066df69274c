// Strict replication on a Redis Cluster of three shards with a replica each: WAIT must count the
// replicas of the primary that owns the lock's slot. Sent alone through a Cluster client it goes
// to a random primary, which has had no writes on that connection and confirms at once.
import { afterAll, beforeAll, expect, it } from "vitest";
import { Cluster } from "ioredis";
import { createRequire } from "node:module";
import {
  createLockManager,
  LockUnavailableError,
  strictReplication,
  type AcquireResult,
  type Lease,
  type LockManager,
  type LockRedisClient,
} from "../src/index.ts";
import { startShardedCluster } from "./cluster-replicas.ts";
import { HASH_KEY, KINDS } from "./support.ts";

const keySlot = createRequire(import.meta.url)("cluster-key-slot") as (key: string) => number;
let cluster: Awaited<ReturnType<typeof startShardedCluster>>;
let client: Cluster;
let locks: LockManager;
/** The same locks with room to spare for the healthy replica: a loaded machine can take 50 ms. */
let patient: LockManager;

beforeAll(async () => {
  cluster = await startShardedCluster();
  client = new Cluster([{ host: "127.0.0.1", port: cluster.shards[0]!.primary.port }]);
  client.on("error", () => {});
  const strict = (timeoutMs: number) =>
    createLockManager({
      redis: client as unknown as LockRedisClient,
      namespace: "strict",
      hashKey: HASH_KEY,
      kinds: KINDS,
      layers: { replication: strictReplication({ replicas: 1, timeoutMs }) },
    });
  locks = strict(50);
  patient = strict(5_000);
});
afterAll(async () => {
  await locks?.close();
  await patient?.close();
  client?.disconnect();
  await cluster?.dispose();
});

it("confirms a lock only when the replica of the primary that owns its slot has it", async () => {
  const resource = { kind: "order", id: "frozen-replica" };
  const shard = cluster.shardOf(keySlot(locks.keyFor(resource)));
  const first = await patient.acquire(resource, { waitMs: 0 }); // a healthy replica confirms
  if (!first.ok) throw new Error("must acquire");
  expect(await first.lease.release()).toBe("released");

  shard.replica.pause(); // SIGSTOP: connected, answering nothing
  let confirmed = 0;
  const refused: string[] = [];
  try {
    for (let i = 0; i < 12; i++) {
      const result = await locks.acquire(resource, { waitMs: 0 }).catch((e: unknown) => e);
      if (result instanceof LockUnavailableError) refused.push(result.reason);
      else if ((result as AcquireResult).ok) {
        confirmed += 1;
        await (result as { lease: Lease }).lease.release();
      }
    }
  } finally {
    shard.replica.resume();
  }
  expect(confirmed).toBe(0);
  expect(refused).toEqual(Array(12).fill("replication"));
  expect(await client.exists(locks.keyFor(resource))).toBe(0); // each given back
});
