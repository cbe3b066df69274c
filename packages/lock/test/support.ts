// Test helpers: a lock manager on the file's test Redis (a namespace of this file's own), or on a
// redis-server process of the test's own for what the shared one must not suffer (test/redis.ts).
import { getEventListeners } from "node:events";
import { Writable } from "node:stream";
import { Redis, type RedisOptions } from "ioredis";
import { Registry } from "prom-client";
import { createTestRedis, startRedisServer, type RedisServer, type TestRedis } from "./redis.ts";
import {
  circuitBreaker,
  createLockManager,
  fairWaiting,
  lockMetrics,
  outagePolicies,
  strictReplication,
  type BreakerOptions,
  type LockKindConfig,
  type LockLogger,
  type LockManager,
  type LockManagerOptions,
  type LockSubscriberClient,
  type ReplicationOptions,
} from "../src/index.ts";

export const HASH_KEY = "test-hash-key-0123456789abcdef";

export const KINDS: Record<string, LockKindConfig> = {
  order: { ttlMs: 2000, waitMs: 2000, outage: "refuse" },
  checkout: { ttlMs: 2000, waitMs: 0, outage: "refuse", personal: true },
  update: { ttlMs: 2000, waitMs: 0, outage: "proceed-db-only" },
  job: { ttlMs: 2000, waitMs: 0, outage: "skip" },
};

/** The tests' short form of a manager with every layer on: the layers' options at the top level. */
export interface TestManagerOptions extends LockManagerOptions {
  registry?: Registry;
  breaker?: BreakerOptions;
  replication?: ReplicationOptions;
  subscriber?: LockSubscriberClient;
}

/** The options of a manager with every layer on (as the shop runs it), from the short form. */
export function withLayers(options: TestManagerOptions): LockManagerOptions {
  const { registry, breaker, replication, subscriber, ...rest } = options;
  return {
    ...rest,
    layers: {
      waiting: fairWaiting({ subscriber }),
      breaker: circuitBreaker(breaker),
      outage: outagePolicies(),
      metrics: lockMetrics(registry ?? new Registry()),
      replication: replication && strictReplication(replication),
      ...rest.layers,
    },
  };
}

/** A manager with every layer on, the tests' hash key and kinds; `more` overrides any option. */
export function layeredManager(
  redis: LockManagerOptions["redis"],
  namespace: string,
  more: Partial<TestManagerOptions> = {},
): LockManager {
  return createLockManager(
    withLayers({ redis, namespace, hashKey: HASH_KEY, kinds: KINDS, ...more }),
  );
}

/** A logger that keeps every line, to assert on what was (and was not) logged. */
export function recordingLogger(): LockLogger & {
  lines: { level: string; obj: object; msg?: string }[];
} {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** A fail-fast client like production's (@orderbot/platform createRedis), with a short timeout. */
export function fastClient(url: string, extra: RedisOptions = {}): Redis {
  return quiet(
    new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 1000,
      connectTimeout: 500,
      retryStrategy: () => 50,
      ...extra,
    }),
  );
}

/** Connection errors while a test's own server is down are expected: keep them out of the output. */
export function quiet(redis: Redis): Redis {
  redis.on("error", () => {});
  return redis;
}

/** Resolves once the client is connected. */
export async function ready(redis: Redis): Promise<void> {
  if (redis.status === "ready") return;
  await new Promise<void>((resolve, reject) => {
    redis.once("ready", resolve);
    setTimeout(() => reject(new Error("Redis not ready within 5 s")), 5000).unref();
  });
}

export interface SharedRedisFixture {
  test: TestRedis;
  managers: LockManager[];
  /** A manager on a connection of its own, once that connection is ready. */
  make(overrides?: Partial<TestManagerOptions>): Promise<LockManager>;
  /** Closes the managers and their clients and deletes the file's keys. */
  dispose(): Promise<void>;
}

/** Managers on the shared test Redis; every one gets a client of its own, like a separate process. */
export async function sharedRedis(): Promise<SharedRedisFixture> {
  const test = await createTestRedis();
  const clients: Redis[] = [];
  const managers: LockManager[] = [];
  return {
    test,
    managers,
    async make(overrides = {}) {
      const redis = fastClient(test.url);
      clients.push(redis);
      await ready(redis);
      const manager = layeredManager(redis, test.namespace, overrides);
      managers.push(manager);
      return manager;
    },
    async dispose() {
      for (const manager of managers) await manager.close();
      for (const client of clients) client.disconnect();
      await test.cleanup();
    },
  };
}

export type { RedisServer, TestRedis };

export async function ownRedis(args: string[] = []): Promise<RedisServer> {
  return startRedisServer(args);
}

export function abortListeners(signal: AbortSignal): number {
  return getEventListeners(signal, "abort").length;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves when `signal` aborts (or rejects after `ms`, so a broken test fails instead of hanging). */
export function aborted(signal: AbortSignal, ms = 5000): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`signal did not abort within ${ms} ms`)), ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve(signal.reason);
      },
      { once: true },
    );
  });
}

export function nullStream(): Writable {
  return new Writable({ write: (_chunk, _enc, done) => done() });
}

/** Counts the commands a client is asked to send (EVALSHA, EVAL, WAIT ...), to prove how many round trips a call made. */
export function counting<T extends object>(client: T): { client: T; calls: string[] } {
  const calls: string[] = [];
  const counted = new Set(["evalsha", "eval", "wait", "get", "set", "del", "publish", "subscribe"]);
  const proxy = new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property === "string" && counted.has(property) && typeof value === "function") {
        return (...args: unknown[]) => {
          calls.push(property);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { client: proxy, calls };
}

/**
 * `client`, whose script replies (EVALSHA and EVAL) reach the caller `delayMs` late while `slow` is set:
 * Redis runs each script at once, only its answer is held back.
 */
export function slowReplies<T extends object>(
  client: T,
  delayMs: number,
): { client: T; slow: boolean } {
  const handle = { client, slow: false };
  handle.client = new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      const method = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
      if (property !== "evalsha" && property !== "eval") return method;
      return async (...args: unknown[]) => {
        const reply = await method(...args);
        if (handle.slow) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return reply;
      };
    },
  });
  return handle;
}

/** A manager on a client of its own, seen through `wrap` (a proxy that delays or records commands). */
export async function wrappedManager(
  fx: Pick<SharedRedisFixture, "test">,
  wrap: (redis: Redis) => Redis,
) {
  const redis = fastClient(fx.test.url);
  await ready(redis);
  const locks = layeredManager(wrap(redis), fx.test.namespace);
  return {
    locks,
    async close() {
      await locks.close();
      redis.disconnect();
    },
  };
}

/** A manager on a client of its own whose script replies (EVALSHA and EVAL) come `delayMs` late while `replies.slow` is set. */
export async function slowManager(fx: Pick<SharedRedisFixture, "test">, delayMs: number) {
  let replies!: { client: Redis; slow: boolean };
  const manager = await wrappedManager(
    fx,
    (redis) => (replies = slowReplies(redis, delayMs)).client,
  );
  return { ...manager, replies };
}

/** `client`, calling `onScript` with the SHA of every EVALSHA it sends. */
export function recordingScripts<T extends object>(client: T, onScript: (sha: string) => void): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== "evalsha") return method;
      return (sha: string, ...rest: unknown[]) => {
        onScript(sha);
        return method(sha, ...rest);
      };
    },
  });
}

/** A subscriber that subscribes but never delivers a message: every hand-off message is lost. */
export function deafSubscriber() {
  const deaf = {
    subscribe: async () => 1,
    unsubscribe: async () => 1,
    on: () => deaf,
    off: () => deaf,
    disconnect: () => {},
  };
  return deaf;
}
