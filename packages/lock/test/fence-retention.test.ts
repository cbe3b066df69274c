// How long a fence counter is kept: its kind's retention from the last acquisition or renewal,
// so a lock renewed past its retention keeps a counter; and a hand-off passed on by a manager
// whose waiter is gone keeps the kind's retention too, not the default hour.
import { expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { acquireScript, lineKeys } from "../src/layers/fair-waiting.ts";
import { KINDS } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

const HOUR = 3_600_000;
const kinds = {
  ...KINDS,
  short: { ttlMs: 2500, waitMs: 0, outage: "refuse" as const, fenceRetentionMs: 3000 },
  kept: { ttlMs: 2000, waitMs: 5000, outage: "refuse" as const, fenceRetentionMs: 2 * HOUR },
};

it("keeps the fence counter its retention past each renewal, not only past the acquisition", async () => {
  const locks = await fx.make({ kinds });
  const result = await locks.acquire({ kind: "short", id: "renewed" });
  if (!result.ok) throw new Error("must acquire");
  const fenceKey = `${result.lease.key}:fence`;
  await sleep(1600); // over half the retention: the next renewal restarts it
  expect(await fx.test.redis.pttl(fenceKey)).toBeLessThan(2000); // 3 s from the acquisition
  expect(await result.lease.extend()).toBe(true);
  expect(await fx.test.redis.pttl(fenceKey)).toBeGreaterThan(2500); // 3 s from the renewal
  await result.lease.release();
});

it("passes on a hand-off nobody here takes with the kind's fence retention, which the message carries", async () => {
  const holder = await fx.make({ kinds });
  const bystander = await fx.make({ kinds });
  const busy = await holder.acquire({ kind: "order", id: "subscribe-first" });
  await bystander.acquire({ kind: "order", id: "subscribe-first" }, { waitMs: 50 }); // subscribes
  if (busy.ok) await busy.lease.release();
  const inboxes = `${fx.test.namespace}:lock:inbox:*`;
  const [channel] = (await fx.test.redis.pubsub("CHANNELS", inboxes)) as string[];

  const held = await holder.acquire({ kind: "kept", id: "passed-on" });
  if (!held.ok) throw new Error("must acquire");
  const { key, token, fence } = held.lease;
  // Next in line: a ticket whose manager is gone, so no confirmation renews the counter.
  const ticket = ["ghost", 2000, 2 * HOUR, "gone-manager", 5000, 300_000, 500];
  await acquireScript.run(fx.test.redis, lineKeys(key), ticket);
  // A hand-off of the holder's token reaches the bystander, whose waiter for it is gone: it
  // passes the lock on, by the release script, to the next ticket in line.
  await fx.test.redis.publish(channel!, [token, fence, 2000, Date.now(), key, 2 * HOUR].join(" "));
  while ((await fx.test.redis.get(key)) !== "ghost") await sleep(2);
  expect(await fx.test.redis.pttl(`${key}:fence`)).toBeGreaterThan(HOUR);
});
