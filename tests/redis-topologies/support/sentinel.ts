// A Sentinel topology on loopback: a master, a replica that replicates through a relay the test can
// cut, and three sentinels (quorum 2) that promote the replica when the master fails.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, startRedisServer, type RedisServer } from "@orderbot/testkit";
import { Redis, type RedisTopologyConfig } from "@orderbot/platform";
import { eventually } from "./eventually.ts";
import { spawnRedisServer, type ServerProcess } from "./processes.ts";
import { startReplicationProxy, type ReplicationProxy } from "./replication-proxy.ts";

export const MASTER_NAME = "orderbot";
export const SENTINEL_PASSWORD = "sentinel-test-password";

export interface SentinelTopology {
  master: RedisServer;
  replica: RedisServer;
  /** Between the replica and the master: `partition()` stops replication. */
  link: ReplicationProxy;
  /** What the apps are configured with (REDIS_SENTINELS, _MASTER and _PASSWORD). */
  config: RedisTopologyConfig;
  /** The sentinels' ports. */
  sentinelPorts: number[];
  /** A plain connection to one server, for looking at what it holds. */
  direct(port: number, password?: string): Redis;
  /** Kills the master (SIGKILL) and resolves once the sentinels have promoted the replica. */
  failover(): Promise<void>;
  dispose(): Promise<void>;
}

type SentinelReply = string[][];
const fields = (entry: string[]) =>
  Object.fromEntries(entry.flatMap((v, i) => (i % 2 === 0 ? [[v, entry[i + 1]]] : [])));

export async function startSentinelTopology(): Promise<SentinelTopology> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-sentinel-"));
  const clients: Redis[] = [];
  const sentinels: ServerProcess[] = [];
  const master = await startRedisServer();
  const link = await startReplicationProxy(master.port);
  const replica = await startRedisServer({ args: ["--replicaof", "127.0.0.1", String(link.port)] });

  const direct = (port: number, password?: string) => {
    // Reconnects: a promoted replica drops its clients (Sentinel sends CLIENT KILL TYPE normal).
    const client = new Redis(port, "127.0.0.1", {
      maxRetriesPerRequest: 1,
      retryStrategy: () => 100,
      ...(password ? { password } : {}),
    });
    client.on("error", () => {});
    clients.push(client);
    return client;
  };
  const dispose = async () => {
    for (const client of clients) client.disconnect();
    await Promise.all(sentinels.map((s) => s.stop()));
    await Promise.all([master.dispose(), replica.dispose()]);
    await link.close();
    await rm(dir, { recursive: true, force: true });
  };

  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const file = path.join(dir, `sentinel-${port}.conf`);
      // failover-timeout is long so that no sentinel "repairs" the replica's master address (it
      // replicates through the relay) during a test; the failover itself takes seconds.
      await writeFile(
        file,
        [
          `port ${port}`,
          "bind 127.0.0.1",
          `dir ${dir}`,
          // The sentinels take a password, as in production: whoever reaches an open sentinel can
          // point every app at a master of their own. They use it with each other too.
          `requirepass ${SENTINEL_PASSWORD}`,
          `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${master.port} 2`,
          `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
          `sentinel failover-timeout ${MASTER_NAME} 60000`,
          `sentinel parallel-syncs ${MASTER_NAME} 1`,
          "",
        ].join("\n"),
      );
      sentinels.push(await spawnRedisServer(port, [file, "--sentinel"]));
    }
    const watchers = sentinels.map((s) => direct(s.port, SENTINEL_PASSWORD));
    const replicaClient = direct(replica.port);
    // Ready when the replica is in sync and every sentinel knows it and the two other sentinels.
    await eventually("the replica to sync and the sentinels to find each other", async () => {
      if (!(await replicaClient.info("replication")).includes("master_link_status:up"))
        return undefined;
      for (const watcher of watchers) {
        const known = (await watcher.call("SENTINEL", "SENTINELS", MASTER_NAME)) as SentinelReply;
        const replicas = (
          (await watcher.call("SENTINEL", "REPLICAS", MASTER_NAME)) as SentinelReply
        ).map(fields);
        const healthy = replicas.some(
          (r) =>
            r.port === String(replica.port) &&
            r["master-link-status"] === "ok" &&
            r.flags === "slave",
        );
        if (known.length !== 2 || !healthy) return undefined;
      }
      return true;
    });

    return {
      master,
      replica,
      link,
      config: {
        REDIS_URL: "redis://127.0.0.1:1",
        REDIS_SENTINELS: sentinels.map((s) => `127.0.0.1:${s.port}`),
        REDIS_SENTINEL_MASTER: MASTER_NAME,
        REDIS_SENTINEL_PASSWORD: SENTINEL_PASSWORD,
        REDIS_COMMAND_TIMEOUT_MS: 2000,
      },
      sentinelPorts: sentinels.map((s) => s.port),
      direct,
      async failover() {
        await master.kill();
        await eventually("the sentinels to promote the replica", async () => {
          for (const watcher of watchers) {
            const [, port] = (await watcher.call(
              "SENTINEL",
              "GET-MASTER-ADDR-BY-NAME",
              MASTER_NAME,
            )) as [string, string];
            if (port !== String(replica.port)) return undefined;
          }
          return (await replicaClient.info("replication")).includes("role:master")
            ? true
            : undefined;
        });
      },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
