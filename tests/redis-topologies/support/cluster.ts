// A Redis Cluster of three masters on loopback (no replicas), formed with `redis-cli --cluster
// create`, and the slot moves a test needs: the steps of a live resharding, one at a time.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startRedisServer, type RedisServer } from "@orderbot/testkit";
import { Redis, type RedisTopologyConfig } from "@orderbot/platform";
import { eventually } from "./eventually.ts";
import { createRequire } from "node:module";

const keySlot = createRequire(import.meta.url)("cluster-key-slot") as (key: string) => number;

const run = promisify(execFile);

export interface ClusterNode {
  server: RedisServer;
  port: number;
  id: string;
  /** A plain (non-cluster) connection: it sees this node only, and gets MOVED/ASK as errors. */
  client: Redis;
}

export interface LocalCluster {
  nodes: ClusterNode[];
  config: RedisTopologyConfig;
  slotOf(key: string): Promise<number>;
  ownerOf(slot: number): Promise<ClusterNode>;
  /** The smallest i >= 0 whose `keyFor(i)` hashes to `slot` (asked of Redis, in pipelined batches). */
  findKeyInSlot(slot: number, keyFor: (i: number) => string): Promise<number>;
  /** Step 1 of a resharding: `to` imports the slot, `from` migrates it. */
  beginMigration(slot: number, from: ClusterNode, to: ClusterNode): Promise<void>;
  /** Step 2: moves some keys of the slot (MIGRATE). */
  migrateKeys(keys: string[], from: ClusterNode, to: ClusterNode): Promise<void>;
  /** Step 3: moves what is left and gives the slot to `to` on every node. */
  finishMigration(slot: number, from: ClusterNode, to: ClusterNode): Promise<void>;
  /** How many redirections of a kind a node has answered (INFO errorstats). */
  errorCount(node: ClusterNode, error: "ASK" | "MOVED" | "TRYAGAIN"): Promise<number>;
  dispose(): Promise<void>;
}

export async function startLocalCluster(): Promise<LocalCluster> {
  const nodes: ClusterNode[] = [];
  const dispose = async () => {
    for (const node of nodes) node.client.disconnect();
    await Promise.all(nodes.map((node) => node.server.dispose()));
  };
  try {
    for (let i = 0; i < 3; i++) {
      const server = await startRedisServer({
        args: [
          ...["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"],
          ...["--cluster-node-timeout", "5000"],
        ],
      });
      const client = new Redis(server.port, "127.0.0.1", { maxRetriesPerRequest: 1 });
      client.on("error", () => {});
      nodes.push({ server, port: server.port, id: "", client });
    }
    for (const node of nodes) node.id = (await node.client.call("CLUSTER", "MYID")) as string;
    await run("redis-cli", [
      "--cluster",
      "create",
      ...nodes.map((n) => `127.0.0.1:${n.port}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ]);
    await eventually("every node to see the cluster as ok", async () => {
      for (const node of nodes)
        if (!((await node.client.call("CLUSTER", "INFO")) as string).includes("cluster_state:ok"))
          return undefined;
      return true;
    });
  } catch (error) {
    await dispose();
    throw error;
  }

  const slotOf = async (key: string) =>
    (await nodes[0]!.client.call("CLUSTER", "KEYSLOT", key)) as number;
  const ownerOf = async (slot: number) => {
    const ranges = (await nodes[0]!.client.call("CLUSTER", "SLOTS")) as [
      number,
      number,
      [string, number, string],
    ][];
    const range = ranges.find(([start, end]) => slot >= start && slot <= end);
    const node = nodes.find((n) => n.port === range?.[2][1]);
    if (!node) throw new Error(`no node owns slot ${slot}`);
    return node;
  };
  const setSlot = (node: ClusterNode, ...args: string[]) =>
    node.client.call("CLUSTER", "SETSLOT", ...args);
  const migrateKeys = async (keys: string[], from: ClusterNode, to: ClusterNode) => {
    if (keys.length > 0)
      await from.client.call(
        "MIGRATE",
        "127.0.0.1",
        String(to.port),
        "",
        "0",
        "5000",
        "KEYS",
        ...keys,
      );
  };

  return {
    nodes,
    config: {
      REDIS_URL: "redis://127.0.0.1:1",
      REDIS_CLUSTER_NODES: [`127.0.0.1:${nodes[0]!.port}`],
      REDIS_COMMAND_TIMEOUT_MS: 2000,
    },
    slotOf,
    ownerOf,
    async findKeyInSlot(slot, keyFor) {
      // CRC16 locally (as Redis computes it), then confirmed by the server: with 16,384 slots a
      // million candidates leave no realistic chance of finding none.
      for (let i = 0; i < 1_000_000; i++) {
        if (keySlot(keyFor(i)) !== slot) continue;
        const confirmed = (await nodes[0]!.client.call("CLUSTER", "KEYSLOT", keyFor(i))) as number;
        if (confirmed !== slot) throw new Error(`CRC16 disagrees with the server for ${keyFor(i)}`);
        return i;
      }
      throw new Error(`no key found in slot ${slot}`);
    },
    async beginMigration(slot, from, to) {
      await setSlot(to, String(slot), "IMPORTING", from.id);
      await setSlot(from, String(slot), "MIGRATING", to.id);
    },
    migrateKeys,
    async errorCount(node, error) {
      const stats = (await node.client.info("errorstats")).match(
        new RegExp(`errorstat_${error}:count=(\\d+)`),
      );
      return Number(stats?.[1] ?? 0);
    },
    async finishMigration(slot, from, to) {
      const left = (await from.client.call(
        "CLUSTER",
        "GETKEYSINSLOT",
        String(slot),
        "1000",
      )) as string[];
      await migrateKeys(left, from, to);
      for (const node of [to, from, ...nodes.filter((n) => n !== to && n !== from)])
        await setSlot(node, String(slot), "NODE", to.id);
    },
    dispose,
  };
}
