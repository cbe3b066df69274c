// Which Redis topology the configuration selects, and the errors for contradictory settings. The
// Sentinel and Cluster clients are exercised against real topologies in tests/redis-topologies.
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { configProblems, serviceUrls } from "@orderbot/testkit";
import {
  ConfigError,
  createRedisFromConfig,
  describeRedisTopology,
  parseConfig,
  redisTopology,
  redisTopologyShape,
  replicationFromConfig,
  type RedisClient,
} from "../src/index.ts";

const schema = z.object({ REDIS_URL: z.string(), ...redisTopologyShape });
const parse = (env: Record<string, string>) =>
  parseConfig(schema, { REDIS_URL: "redis://127.0.0.1:6379", ...env });

describe("redisTopology", () => {
  it("is a single server when only REDIS_URL is set (empty topology variables count as unset)", () => {
    const config = parse({
      REDIS_SENTINELS: "",
      REDIS_SENTINEL_MASTER: "",
      REDIS_CLUSTER_NODES: "",
    });
    expect(redisTopology(config)).toEqual({ kind: "single", url: "redis://127.0.0.1:6379" });
  });

  it("follows Sentinel with the credentials, database and TLS of REDIS_URL", () => {
    const config = parse({
      REDIS_URL: "rediss://app:p%40ss@ignored-host:6380/2",
      REDIS_SENTINELS: "sentinel-1:26379, sentinel-2:26379,[::1]:26380",
      REDIS_SENTINEL_MASTER: "orderbot",
    });
    const topology = redisTopology(config);
    expect(topology).toEqual({
      kind: "sentinel",
      masterName: "orderbot",
      sentinels: [
        { host: "sentinel-1", port: 26379 },
        { host: "sentinel-2", port: 26379 },
        { host: "::1", port: 26380 },
      ],
      username: "app",
      password: "p@ss",
      tls: true,
      db: 2,
    });
    expect(describeRedisTopology(topology)).toBe(
      'sentinel master "orderbot" via sentinel-1:26379,sentinel-2:26379,::1:26380',
    );
  });

  it("uses a cluster when REDIS_CLUSTER_NODES is set", () => {
    const topology = redisTopology(
      parse({
        REDIS_URL: "redis://:secret@x:6379",
        REDIS_CLUSTER_NODES: "10.0.0.1:7000,10.0.0.2:7000",
      }),
    );
    expect(topology).toMatchObject({
      kind: "cluster",
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 7000 },
      ],
      password: "secret",
    });
    expect(describeRedisTopology(topology)).not.toContain("secret");
  });

  it("lists every contradiction at once", () => {
    const problems = configProblems(() =>
      redisTopology(
        parse({
          REDIS_URL: "redis://x:6379/3",
          REDIS_SENTINELS: "s:26379",
          REDIS_CLUSTER_NODES: "n:7000",
        }),
      ),
    );
    expect(problems).toEqual([
      "REDIS_SENTINELS and REDIS_CLUSTER_NODES: set one topology, not both",
      "REDIS_SENTINEL_MASTER: is required with REDIS_SENTINELS",
      "REDIS_URL: Redis Cluster has only database 0; remove the database number",
    ]);
    expect(
      configProblems(() => redisTopology(parse({ REDIS_SENTINEL_MASTER: "orderbot" }))),
    ).toEqual(["REDIS_SENTINELS: is required with REDIS_SENTINEL_MASTER"]);
  });

  it("rejects malformed node lists when the configuration is parsed", () => {
    expect(configProblems(() => parse({ REDIS_CLUSTER_NODES: "10.0.0.1:7000,10.0.0.2" }))).toEqual([
      "REDIS_CLUSTER_NODES.1: must be a comma-separated list of host:port",
    ]);
    expect(
      configProblems(() =>
        redisTopology({ REDIS_URL: "redis://x", REDIS_CLUSTER_NODES: ["n:99999"] }),
      ),
    ).toEqual(["n:99999: must be host:port"]);
  });
});

describe("replicationFromConfig", () => {
  it("turns strict mode on only when replicas are required", () => {
    expect(replicationFromConfig(parse({}))).toBeUndefined();
    expect(
      replicationFromConfig(parse({ REDIS_WAIT_REPLICAS: "1", REDIS_WAIT_TIMEOUT_MS: "80" })),
    ).toEqual({
      replicas: 1,
      timeoutMs: 80,
    });
  });
});

describe("createRedisFromConfig", () => {
  const clients: RedisClient[] = [];
  afterAll(() => clients.forEach((client) => client.disconnect()));

  it("connects to a single server from REDIS_URL", async () => {
    const redis = createRedisFromConfig(
      { REDIS_URL: serviceUrls().redisUrl, REDIS_COMMAND_TIMEOUT_MS: 1000 },
      { connectionName: "platform-test" },
    );
    clients.push(redis);
    await new Promise((resolve) => redis.once("ready", resolve));
    expect(await redis.ping()).toBe("PONG");
    expect(await redis.client("GETNAME")).toBe("platform-test");
  });

  it("throws the configuration problems instead of connecting", () => {
    expect(() =>
      createRedisFromConfig({ REDIS_URL: "redis://x", REDIS_SENTINEL_MASTER: "m" }),
    ).toThrow(ConfigError);
  });
});
