// Replies lost on the way back: Redis ran the command, the connection dropped before its answer
// arrived (a proxy cuts it). The acquire's outcome is unknown to the caller, so the lock is given
// back by its token; a client that resends the command after reconnecting gets its own lock; a
// release that failed can be sent again; and a closed manager still marks its leases lost.
import { afterAll, beforeAll, expect, it } from "vitest";
import { Redis } from "ioredis";
import { LeaseLostError, LockUnavailableError } from "../src/index.ts";
import { cutProxy, type CutProxy } from "./cut-proxy.ts";
import { aborted, fastClient, layeredManager, quiet, ready, sleep } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();
let proxy: CutProxy;
const clients: Redis[] = [];

beforeAll(async () => {
  proxy = await cutProxy(Number(new URL(fx.test.url).port));
});
afterAll(async () => {
  clients.forEach((client) => client.disconnect());
  await proxy.close();
});

/** A manager whose connection goes through the proxy: fail-fast like production's, or ioredis's defaults. */
async function proxied(defaults = false) {
  const redis = defaults ? quiet(new Redis(proxy.url)) : fastClient(proxy.url);
  clients.push(redis);
  await ready(redis);
  const locks = layeredManager(redis, fx.test.namespace);
  // Loads the scripts first: the reply cut must be the script's own, not a NOSCRIPT.
  const warm = await locks.acquire({ kind: "order", id: "warm-up" }, { waitMs: 0 });
  if (warm.ok) await warm.lease.release();
  return { redis, locks };
}

/** Whether `key` is gone within about 3 s (polled every 10 ms). */
async function gone(key: string): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    if ((await fx.test.redis.exists(key)) === 0) return true;
    await sleep(10);
  }
  return false;
}

it("gives back a lock whose acquire ran but whose reply was lost, long before its TTL", async () => {
  const { locks } = await proxied();
  const resource = { kind: "order", id: "lost-reply" };
  proxy.cutNextReply();
  const error = await locks
    .acquire(resource, { ttlMs: 30_000, waitMs: 0 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LockUnavailableError);
  expect(await gone(locks.keyFor(resource))).toBe(true); // given back once reconnected, not in 30 s
  await locks.close();
});

it("with ioredis's defaults, the try resent after the reconnect gets the caller's own lock, not busy", async () => {
  const { locks } = await proxied(true);
  const resource = { kind: "order", id: "resent" };
  proxy.cutNextReply();
  const result = await locks.acquire(resource, { ttlMs: 30_000, waitMs: 0 });
  if (!result.ok) throw new Error("told busy by its own lock");
  expect(await fx.test.redis.get(result.lease.key)).toBe(result.lease.token);
  expect(result.lease.fence).toBe(Number(await fx.test.redis.get(`${result.lease.key}:fence`)));
  expect(await result.lease.release()).toBe("released");
  await locks.close();
});

it("sends a release that failed again when called again", async () => {
  const { redis, locks } = await proxied();
  const result = await locks.acquire({ kind: "order", id: "release-again" }, { waitMs: 0 });
  if (!result.ok) throw new Error("must acquire");
  proxy.refuse();
  await expect(result.lease.release()).rejects.toBeInstanceOf(LockUnavailableError);
  proxy.accept();
  await ready(redis);
  expect(await result.lease.release()).toBe("released");
  expect(await fx.test.redis.exists(result.lease.key)).toBe(0);
  await locks.close();
});

it("after close(), still marks a lease it holds lost when the connection drops", async () => {
  const { locks } = await proxied();
  const result = await locks.acquire({ kind: "order", id: "closed-then-cut" }, { waitMs: 0 });
  if (!result.ok) throw new Error("must acquire");
  await locks.close();
  proxy.refuse();
  const reason = (await aborted(result.lease.signal, 3000)) as LeaseLostError;
  expect(reason).toBeInstanceOf(LeaseLostError);
  expect(reason.reason).toBe("connection-lost");
  proxy.accept();
});
