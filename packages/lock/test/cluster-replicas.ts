// A Redis Cluster of three shards, each a primary with one replica, on loopback: redis-server
// processes joined by CLUSTER MEET, slots assigned by hand, replicas attached by CLUSTER REPLICATE.
import { createRequire } from "node:module";
import { Redis } from "ioredis";
import { startRedisServer, type RedisServer } from "./redis.ts";
import { sleep } from "./support.ts";

export interface Shard {
  primary: RedisServer;
  replica: RedisServer;
  slots: [number, number];
}

const RANGES: [number, number][] = [
  [0, 5460],
  [5461, 10922],
  [10923, 16383],
];

const keySlot = createRequire(import.meta.url)("cluster-key-slot") as (key: string) => number;

/** A key whose slot is in `range`. */
function keyIn([first, last]: [number, number]): string {
  for (let i = 0; ; i++) {
    const slot = keySlot(`warm-${i}`);
    if (slot >= first && slot <= last) return `warm-${i}`;
  }
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error(`cluster: ${what} did not happen within 10 s`);
}

async function clusterNode(): Promise<{ server: RedisServer; bus: number; client: Redis }> {
  const server = await startRedisServer([
    ...["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"],
    ...["--cluster-node-timeout", "15000"],
  ]);
  const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
  client.on("error", () => {});
  return { server, bus: server.busPort!, client };
}

/** Starts the cluster; `dispose` stops every process. */
export async function startShardedCluster() {
  const nodes = await Promise.all(Array.from({ length: 6 }, () => clusterNode()));
  const [primaries, replicas] = [nodes.slice(0, 3), nodes.slice(3)];
  const dispose = async () => {
    for (const node of nodes) node.client.disconnect();
    await Promise.all(nodes.map((node) => node.server.dispose()));
  };
  try {
    for (const [i, node] of primaries.entries())
      await node.client.call("CLUSTER", "ADDSLOTSRANGE", ...RANGES[i]!.map(String));
    for (const node of nodes.slice(1))
      await node.client.call(
        "CLUSTER",
        "MEET",
        "127.0.0.1",
        primaries[0]!.server.port,
        nodes[0]!.bus,
      );
    const known = async (node: (typeof nodes)[number]) =>
      ((await node.client.call("CLUSTER", "NODES")) as string).trim().split("\n").length === 6;
    await until("every node meeting every other", async () =>
      (await Promise.all(nodes.map(known))).every(Boolean),
    );
    for (const [i, node] of replicas.entries()) {
      const id = (await primaries[i]!.client.call("CLUSTER", "MYID")) as string;
      await node.client.call("CLUSTER", "REPLICATE", id);
    }
    // Acknowledging a write, not just attached: a replica acks its first sync up to a second later.
    for (const [i, node] of primaries.entries()) {
      const key = keyIn(RANGES[i]!);
      await until("a replica acknowledging its primary's writes", async () => {
        await node.client.set(key, "1").catch(() => {}); // refused until the slots are known
        return ((await node.client.call("WAIT", "1", "100")) as number) >= 1;
      });
    }
    const ok = async (node: (typeof nodes)[number]) =>
      ((await node.client.call("CLUSTER", "INFO")) as string).includes("cluster_state:ok");
    await until("the cluster being ok", async () =>
      (await Promise.all(nodes.map(ok))).every(Boolean),
    );
  } catch (error) {
    await dispose();
    throw error;
  }
  const shards: Shard[] = primaries.map((node, i) => ({
    primary: node.server,
    replica: replicas[i]!.server,
    slots: RANGES[i]!,
  }));
  return {
    shards,
    dispose,
    shardOf: (slot: number) => shards.find((s) => slot >= s.slots[0] && slot <= s.slots[1])!,
  };
}
