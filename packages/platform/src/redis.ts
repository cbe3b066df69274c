import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";
import { z } from "zod";
import { csv } from "./config.ts";
import { ConfigError } from "./errors.ts";
import type { Logger } from "./logger.ts";

export { Cluster, Redis } from "ioredis";

/** A client on whichever topology is configured; both run the same commands and Lua scripts. */
export type RedisClient = Redis | Cluster;

export interface RedisConfig {
  url: string;
  /** Upper bound for any one command; a hung Redis must not hang a request. */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Name shown in CLIENT LIST, handy when several processes share one Redis. */
  connectionName?: string;
}

/** Reconnect with capped exponential backoff: recovery needs no restart, and never a hot loop. */
const backoff = (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000);

/**
 * A Redis client that fails fast when Redis is unreachable instead of queueing commands: callers
 * (the lock manager first of all) decide what an outage means for them. It keeps reconnecting in
 * the background with capped backoff, so recovery needs no restart.
 */
export function createRedis(config: RedisConfig, extra: RedisOptions = {}): Redis {
  return new Redis(config.url, {
    lazyConnect: false,
    ...failFast(config),
    ...extra,
  });
}

function failFast(config: Omit<RedisConfig, "url">): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: config.commandTimeoutMs ?? 1000,
    connectTimeout: config.connectTimeoutMs ?? 2000,
    connectionName: config.connectionName,
    retryStrategy: backoff,
  };
}

const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/;
const hostPorts = csv.pipe(
  z.array(z.string().regex(HOST_PORT, "must be a comma-separated list of host:port")),
);

/**
 * The environment variables that choose the Redis topology. Spread into a process's config schema
 * next to `sharedConfigShape` (which holds REDIS_URL and REDIS_COMMAND_TIMEOUT_MS):
 * - `REDIS_URL` alone: one Redis server;
 * - `REDIS_SENTINELS` + `REDIS_SENTINEL_MASTER`: the master that Sentinel names, followed across failovers
 *   (`REDIS_SENTINEL_PASSWORD`: the sentinels' own password);
 * - `REDIS_CLUSTER_NODES`: a Redis Cluster, reached through any of these seed nodes.
 * With Sentinel or Cluster, REDIS_URL's host is not used, but its credentials, database number
 * and scheme (`rediss://` = TLS) apply to the data nodes.
 * `REDIS_WAIT_REPLICAS` > 0 turns on the lock module's strict mode (WAIT after each acquisition).
 */
export const redisTopologyShape = {
  REDIS_SENTINELS: hostPorts.describe("Redis Sentinel: the sentinels, host:port, comma-separated."),
  REDIS_SENTINEL_MASTER: z
    .string()
    .default("")
    .describe("Redis Sentinel: the name of the master the sentinels watch."),
  REDIS_SENTINEL_PASSWORD: z
    .string()
    .default("")
    .describe("Redis Sentinel: the sentinels' own password (requirepass); empty: they take none."),
  REDIS_CLUSTER_NODES: hostPorts.describe(
    "Redis Cluster: some of its nodes, host:port, comma-separated; the rest are discovered.",
  ),
  REDIS_WAIT_REPLICAS: z.coerce
    .number()
    .int()
    .min(0)
    .max(16)
    .default(0)
    .describe("Strict mode: WAIT for this many replicas after each lock acquisition; 0: off."),
  REDIS_WAIT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(50)
    .describe("Strict mode: how long that WAIT may take before the lock is given back (ms)."),
} as const;

/** What createRedisFromConfig reads: REDIS_URL plus the parsed `redisTopologyShape` fields. */
export interface RedisTopologyConfig {
  REDIS_URL: string;
  REDIS_COMMAND_TIMEOUT_MS?: number;
  REDIS_SENTINELS?: readonly string[];
  REDIS_SENTINEL_MASTER?: string;
  REDIS_SENTINEL_PASSWORD?: string;
  REDIS_CLUSTER_NODES?: readonly string[];
  REDIS_WAIT_REPLICAS?: number;
  REDIS_WAIT_TIMEOUT_MS?: number;
}

export interface HostPort {
  host: string;
  port: number;
}

interface Credentials {
  username?: string;
  password?: string;
  tls: boolean;
  db: number;
}

export type RedisTopology =
  | { kind: "single"; url: string }
  | ({
      kind: "sentinel";
      sentinels: HostPort[];
      masterName: string;
      /** The sentinels' own password: without one, anyone who reaches them can name a master. */
      sentinelPassword?: string;
    } & Credentials)
  | ({ kind: "cluster"; nodes: HostPort[] } & Credentials);

/**
 * Which topology the configuration selects, or a ConfigError listing every problem (both Sentinel
 * and Cluster set, a Sentinel list without a master name, a database number in Cluster mode ...).
 */
export function redisTopology(config: RedisTopologyConfig): RedisTopology {
  const sentinels = config.REDIS_SENTINELS ?? [];
  const master = config.REDIS_SENTINEL_MASTER ?? "";
  const nodes = config.REDIS_CLUSTER_NODES ?? [];
  const problems: string[] = [];
  if (sentinels.length > 0 && nodes.length > 0) {
    problems.push("REDIS_SENTINELS and REDIS_CLUSTER_NODES: set one topology, not both");
  }
  if (sentinels.length > 0 && master === "")
    problems.push("REDIS_SENTINEL_MASTER: is required with REDIS_SENTINELS");
  if (master !== "" && sentinels.length === 0)
    problems.push("REDIS_SENTINELS: is required with REDIS_SENTINEL_MASTER");
  let credentials: Credentials | undefined;
  try {
    credentials = credentialsOf(config.REDIS_URL);
  } catch {
    problems.push("REDIS_URL: must be a redis:// or rediss:// URL");
  }
  if (nodes.length > 0 && credentials && credentials.db !== 0) {
    problems.push("REDIS_URL: Redis Cluster has only database 0; remove the database number");
  }
  const parsed = [...sentinels, ...nodes].map((entry) => [entry, parseHostPort(entry)] as const);
  for (const [entry, hostPort] of parsed)
    if (!hostPort) problems.push(`${entry}: must be host:port`);
  if (problems.length > 0 || !credentials) throw new ConfigError(problems);

  const toHostPort = (list: readonly string[]) => list.map((entry) => parseHostPort(entry)!);
  if (nodes.length > 0) return { kind: "cluster", nodes: toHostPort(nodes), ...credentials };
  if (sentinels.length > 0)
    return {
      kind: "sentinel",
      sentinels: toHostPort(sentinels),
      masterName: master,
      ...(config.REDIS_SENTINEL_PASSWORD
        ? { sentinelPassword: config.REDIS_SENTINEL_PASSWORD }
        : {}),
      ...credentials,
    };
  return { kind: "single", url: config.REDIS_URL };
}

function parseHostPort(entry: string): HostPort | undefined {
  const match = HOST_PORT.exec(entry.trim());
  const port = Number(match?.[2]);
  if (!match || !(port >= 1 && port <= 65_535)) return undefined;
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port };
}

function credentialsOf(url: string): Credentials {
  const parsed = new URL(url);
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new Error("not a redis URL");
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error("bad database number");
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    tls: parsed.protocol === "rediss:",
    db,
  };
}

/** One log-safe line: the topology and its addresses, never credentials. */
export function describeRedisTopology(topology: RedisTopology): string {
  const list = (items: HostPort[]) => items.map((i) => `${i.host}:${i.port}`).join(",");
  switch (topology.kind) {
    case "single": {
      const url = new URL(topology.url);
      return `single ${url.hostname}:${url.port || 6379}`;
    }
    case "sentinel":
      return `sentinel master "${topology.masterName}" via ${list(topology.sentinels)}`;
    case "cluster":
      return `cluster via ${list(topology.nodes)}`;
  }
}

/** Strict mode settings for the lock manager (`replication` option), or undefined when off. */
export function replicationFromConfig(
  config: RedisTopologyConfig,
): { replicas: number; timeoutMs: number } | undefined {
  const replicas = config.REDIS_WAIT_REPLICAS ?? 0;
  return replicas > 0 ? { replicas, timeoutMs: config.REDIS_WAIT_TIMEOUT_MS ?? 50 } : undefined;
}

export interface CreateRedisOptions {
  connectionName?: string;
  connectTimeoutMs?: number;
}

/**
 * A fail-fast client (see createRedis) on the configured topology: a single server, the master
 * named by Sentinel (followed across failovers), or a Redis Cluster (MOVED and ASK redirections
 * followed, slot map refreshed). Throws a ConfigError when the configuration is contradictory.
 *
 * @example
 * const redis = createRedisFromConfig(config, { connectionName: "bot" });
 * const replication = replicationFromConfig(config); // then, when set: layers.replication = strictReplication(replication)
 */
export function createRedisFromConfig(
  config: RedisTopologyConfig,
  options: CreateRedisOptions = {},
): RedisClient {
  const topology = redisTopology(config);
  const base = {
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    connectTimeoutMs: options.connectTimeoutMs,
    connectionName: options.connectionName,
  };
  switch (topology.kind) {
    case "single":
      return createRedis({ url: topology.url, ...base });
    case "sentinel":
      return new Redis({
        ...failFast(base),
        ...authOptions(topology),
        db: topology.db,
        sentinels: topology.sentinels,
        ...(topology.sentinelPassword ? { sentinelPassword: topology.sentinelPassword } : {}),
        name: topology.masterName,
        role: "master",
        sentinelRetryStrategy: backoff,
        // Reconnect as soon as any sentinel announces a new master, not at the next error.
        failoverDetector: true,
        ...(topology.tls ? { enableTLSForSentinelMode: true } : {}),
        // A demoted master answers writes with READONLY: reconnect, asking the sentinels again.
        reconnectOnError: (error) => error.message.startsWith("READONLY"),
      });
    case "cluster":
      return new Cluster(topology.nodes, clusterOptions(base, topology));
  }
}

function authOptions(credentials: Credentials): RedisOptions {
  return {
    ...(credentials.username ? { username: credentials.username } : {}),
    ...(credentials.password ? { password: credentials.password } : {}),
    ...(credentials.tls ? { tls: {} } : {}),
  };
}

function clusterOptions(base: Omit<RedisConfig, "url">, credentials: Credentials): ClusterOptions {
  return {
    // No queueing while the slot map is loading or a node is down: fail fast, like the others.
    enableOfflineQueue: false,
    scaleReads: "master",
    maxRedirections: 16,
    retryDelayOnMoved: 0,
    // TRYAGAIN (a multi-key command during a slot migration) and CLUSTERDOWN are retried briefly.
    retryDelayOnTryAgain: 100,
    retryDelayOnClusterDown: 100,
    clusterRetryStrategy: backoff,
    slotsRefreshTimeout: base.connectTimeoutMs ?? 2000,
    redisOptions: { ...failFast(base), ...authOptions(credentials) },
  };
}

/** Resolves once the client is ready, or rejects after `timeoutMs`. */
export async function waitForRedis(redis: RedisClient, timeoutMs = 5000): Promise<void> {
  if (redis.status === "ready") return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off("ready", onReady);
    };
    redis.on("ready", onReady);
  });
}

/**
 * Logs a Redis connection going down and coming back, once each (the client reconnects by itself
 * and would otherwise report every failed attempt, unhandled, on stderr).
 */
export function watchRedis(redis: RedisClient, logger: Logger, name: string): void {
  let down = false;
  redis.on("error", (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(
      { redis: name, error: error.message },
      "Redis unreachable; lock kinds fall back to their outage policies",
    );
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    logger.info({ redis: name }, "Redis reachable again");
  });
}
