// Waiters whose process died while in line: a release hands each of their tickets the lock, but
// only for a short claim (the waiter's command timeout) that a live waiter would have confirmed
// at once. So each dead ticket costs the callers behind it one claim, not a full TTL.
import { expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { createLockManager } from "../src/index.ts";
import { fastClient, HASH_KEY, KINDS, ready, withLayers } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

const COMMAND_TIMEOUT_MS = 250;
const TTL_MS = 5000;
const resource = { kind: "order", id: "dead-line" };

/** A manager with its own connections, which `crash()` drops as a SIGKILL would. */
async function doomedManager() {
  const [redis, subscriber] = [fastClient(fx.test.url), fastClient(fx.test.url)];
  await Promise.all([ready(redis), ready(subscriber)]);
  const options = { namespace: fx.test.namespace, hashKey: HASH_KEY, kinds: KINDS };
  const commandTimeoutMs = COMMAND_TIMEOUT_MS;
  const locks = createLockManager(withLayers({ ...options, redis, subscriber, commandTimeoutMs }));
  const crash = () => [redis, subscriber].forEach((client) => client.disconnect());
  return { locks, crash };
}

it("each live caller behind three crashed waiters waits about a claim, not a TTL", async () => {
  const holder = await (await fx.make()).acquire(resource, { ttlMs: TTL_MS, waitMs: 0 });
  if (!holder.ok) throw new Error("must acquire");
  const doomed = await doomedManager();
  const dead = Array.from({ length: 3 }, () =>
    doomed.locks.acquire(resource, { ttlMs: TTL_MS, waitMs: 20_000 }).catch(() => "crashed"),
  );
  while ((await fx.test.redis.zcard(`${holder.lease.key}:queue`)) < 3) await sleep(5);
  doomed.crash(); // its tickets stay in line, nobody will confirm a hand-off to them
  expect(await holder.lease.release()).toBe("released"); // handed to the first dead ticket

  const live = await fx.make({ commandTimeoutMs: COMMAND_TIMEOUT_MS });
  const waits: number[] = [];
  for (let i = 0; i < 4; i++) {
    const started = performance.now();
    const result = await live.acquire(resource, { ttlMs: TTL_MS, waitMs: 20_000 });
    waits.push(performance.now() - started);
    if (!result.ok) throw new Error("a live caller must get the lock");
    await sleep(20);
    expect(await result.lease.release()).toBe("released");
  }
  for (const waited of waits) expect(waited).toBeLessThan(4 * COMMAND_TIMEOUT_MS);
  expect(await Promise.all(dead)).toEqual(["crashed", "crashed", "crashed"]);
  expect(live.stats()).toMatchObject({ waiters: 0, leases: 0, timers: 0 });
});
