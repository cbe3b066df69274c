// The lock libraries the lock benchmarks compare, each as a "client": one connection and one lock
// instance of the library, locking a key and unlocking it (for @orderbot/lock, one lock manager).
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis"; // the lock package's own ioredis, for every library alike
import { Registry } from "prom-client";
import { Redlock } from "@sesamecare-oss/redlock";
import { Mutex } from "redis-semaphore";
import {
  circuitBreaker,
  createLockManager,
  fairWaiting,
  lockMetrics,
  outagePolicies,
  type LockManager,
} from "../src/index.ts";

export const TTL_MS = 10_000;
export const WAIT_MS = 10_000;
/** How long polling peers sleep between tries on a held lock (redis-semaphore's default). */
export const RETRY_MS = 10;

/** One client of one library: lock a key, then unlock it. */
export interface Client {
  lock(key: string): Promise<() => Promise<unknown>>;
  close(): Promise<void>;
}

export interface Library {
  name: string;
  client(url: string): Promise<Client>;
}

export const connect = async (url: string) => {
  const redis = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
  await redis.ping();
  return redis;
};

export const RELEASE_LUA =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The lock manager options every @orderbot/lock client here uses: one kind, "bench", waiting `waitMs`. */
export const lockManagerOptions = (redis: Redis, waitMs: number) => ({
  redis,
  namespace: "bench",
  hashKey: "bench-hash-key-0123456789",
  layers: {
    waiting: fairWaiting(),
    breaker: circuitBreaker(),
    outage: outagePolicies(),
    metrics: lockMetrics(new Registry()),
  },
  kinds: { bench: { ttlMs: TTL_MS, waitMs, outage: "refuse" as const } },
});

/** @orderbot/lock as a client: one lock manager on its own connection, on a kind that waits `waitMs`. */
export function orderbotLock(name: string, waitMs: number): Library {
  return {
    name,
    async client(url) {
      const redis = await connect(url);
      const locks: LockManager = createLockManager(lockManagerOptions(redis, waitMs));
      return {
        async lock(key) {
          const result = await locks.acquire({ kind: "bench", id: key });
          if (!result.ok) throw new Error("busy");
          return () => result.lease.release();
        },
        async close() {
          await locks.close();
          redis.disconnect();
        },
      };
    },
  };
}

export const libraries: Library[] = [
  orderbotLock("@orderbot/lock", WAIT_MS),
  {
    name: "redis-semaphore Mutex",
    async client(url) {
      const redis = await connect(url);
      return {
        async lock(key) {
          const mutex = new Mutex(redis as never, key, {
            lockTimeout: TTL_MS,
            acquireTimeout: WAIT_MS,
            retryInterval: RETRY_MS,
            refreshInterval: 0,
          });
          await mutex.acquire();
          return () => mutex.release();
        },
        async close() {
          redis.disconnect();
        },
      };
    },
  },
  {
    name: "@sesamecare-oss/redlock",
    async client(url) {
      const redis = await connect(url);
      // One node; retry every RETRY_MS plus up to RETRY_MS of jitter, for as long as WAIT_MS allows.
      const redlock = new Redlock([redis as never], {
        retryCount: WAIT_MS / RETRY_MS,
        retryDelay: RETRY_MS,
        retryJitter: RETRY_MS,
      });
      return {
        async lock(key) {
          const lock = await redlock.acquire([key], TTL_MS);
          return () => lock.release();
        },
        async close() {
          redis.disconnect();
        },
      };
    },
  },
  {
    name: "raw SET NX PX + EVALSHA",
    async client(url) {
      const redis = await connect(url);
      const sha = (await redis.script("LOAD", RELEASE_LUA)) as string;
      return {
        async lock(key) {
          const token = randomBytes(16).toString("hex");
          while ((await redis.set(key, token, "PX", TTL_MS, "NX")) !== "OK") await sleep(RETRY_MS);
          return () => redis.evalsha(sha, 1, key, token);
        },
        async close() {
          redis.disconnect();
        },
      };
    },
  },
];
