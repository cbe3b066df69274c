// A bug is not an outage: a client of the wrong shape is refused when the manager is made, and an
// error that is neither a Redis reply nor a connection error (a TypeError) reaches the caller,
// never the outage policy, so a `proceed-db-only` kind does not run lockless because of it.
import { expect, it } from "vitest";
import { Registry } from "prom-client";
import { createLockManager, LockInputError, type LockRedisClient } from "../src/index.ts";
import { HASH_KEY, KINDS, withLayers } from "./support.ts";
import { fastClient, ready } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

const options = () => ({ namespace: fx.test.namespace, hashKey: HASH_KEY, kinds: KINDS });

it("refuses a client without evalsha (node-redis names it evalSha) when the manager is made", () => {
  const nodeRedisLike = { evalSha: async () => 1, eval: async () => 1, on() {}, off() {} };
  const make = () =>
    createLockManager({ ...options(), redis: nodeRedisLike as unknown as LockRedisClient });
  expect(make).toThrow(LockInputError);
  expect(make).toThrow(/evalsha/);
});

it("raises a TypeError from the client instead of running a proceed-db-only task lockless", async () => {
  const own = fastClient(fx.test.url);
  await ready(own);
  const buggy = new Proxy(own, {
    get(target, property, receiver) {
      if (property === "evalsha")
        return async () => Promise.reject(new TypeError("x is not a function"));
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as () => unknown).bind(target) : value;
    },
  });
  const locks = createLockManager(
    withLayers({ ...options(), redis: buggy, registry: new Registry() }),
  );
  try {
    let ran = false;
    const outcome = locks.withLock({ kind: "update", id: 1 }, async () => (ran = true));
    await expect(outcome).rejects.toThrow(TypeError);
    expect(ran).toBe(false);
    expect(locks.stats().breaker).toBe("closed"); // a bug is no sign that Redis is down
  } finally {
    await locks.close();
    own.disconnect();
  }
});
