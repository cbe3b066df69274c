// A full Redis (maxmemory reached, policy noeviction) answers "OOM command not allowed" to any
// command that would add data. For the lock that is Redis being unavailable: acquire rejects with
// LockUnavailableError (reason "oom") and withLock applies the kind's outage policy, instead of
// rethrowing a reply error that fails every caller.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { Registry } from "prom-client";
import { createLockManager, LockUnavailableError, type LockManager } from "../src/index.ts";
import {
  fastClient,
  HASH_KEY,
  KINDS,
  ownRedis,
  ready,
  type RedisServer,
  withLayers,
} from "./support.ts";

let server: RedisServer;
let redis: Redis;
let locks: LockManager;

beforeAll(async () => {
  server = await ownRedis(["--maxmemory-policy", "noeviction"]);
  redis = fastClient(server.url);
  await ready(redis);
  locks = createLockManager(
    withLayers({
      redis,
      namespace: "oom",
      hashKey: HASH_KEY,
      kinds: KINDS,
      registry: new Registry(),
      breaker: { failureThreshold: 100, coolDownMs: 1000 }, // every call below reaches Redis
    }),
  );
});
afterAll(async () => {
  await locks.close();
  redis.disconnect();
  await server.dispose();
});

it("treats a full Redis as unavailable: each kind's outage policy applies, and a held lock can still be released", async () => {
  const held = await locks.acquire({ kind: "order", id: "held-before" });
  expect(held.ok).toBe(true);
  // Fill it: 4 MB of data, then a 1 MB limit.
  await redis.eval(
    "for i = 1, 20000 do redis.call('SET', 'fill:' .. i, string.rep('x', 200)) end",
    0,
  );
  await redis.config("SET", "maxmemory", "1mb");
  await expect(redis.set("probe", "1")).rejects.toThrow(/^OOM /);

  const error = await locks.acquire({ kind: "order", id: "o-1" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LockUnavailableError);
  expect((error as LockUnavailableError).reason).toBe("oom");

  let ran = 0;
  const task = async () => ++ran;
  // update: proceed-db-only (a payment must still be recorded), order: refuse, job: skip.
  expect(await locks.withLock({ kind: "update", id: 1 }, task)).toEqual({
    status: "ok",
    value: 1,
    fence: null,
    degraded: true,
  });
  expect(await locks.withLock({ kind: "order", id: 1 }, task)).toEqual({ status: "unavailable" });
  expect(await locks.withLock({ kind: "job", id: "relay" }, task)).toEqual({ status: "skipped" });
  expect(ran).toBe(1);

  // Releasing frees memory, which a full Redis still allows.
  if (held.ok) expect(await held.lease.release()).toBe("released");
  await redis.config("SET", "maxmemory", "0");
  expect((await locks.acquire({ kind: "order", id: "o-1" })).ok).toBe(true);
});
