// 20 clients — each a lock manager with a connection of its own, as 20 processes would have — do
// a non-atomic read, sleep, write of one counter under the lock, 2,000 operations in all. Any
// overlap would lose an increment: the final value must be exact. A lock taken by check-then-set
// instead of one script, a barrier in the gap so the race is certain, admits every client at once.
import { expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import {} from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

it("20 clients × 100 read-sleep-write increments under the lock end at exactly 2,000", async () => {
  const counter = `${fx.test.namespace}:counter`;
  const fences: number[] = [];
  const clients = await Promise.all(Array.from({ length: 20 }, () => fx.make()));
  await Promise.all(
    clients.map(async (locks) => {
      for (let i = 0; i < 100; i++) {
        const outcome = await locks.withLock(
          { kind: "order", id: "shared" },
          async ({ lease }) => {
            const value = Number((await fx.test.redis.get(counter)) ?? 0);
            await sleep(Math.random() < 0.5 ? 0 : 1); // widen the window a lost update needs
            await fx.test.redis.set(counter, String(value + 1));
            fences.push(lease!.fence);
          },
          { waitMs: 30_000 },
        );
        expect(outcome.status).toBe("ok");
      }
    }),
  );
  expect(Number(await fx.test.redis.get(counter))).toBe(2000);
  // The fences were handed out in the order the critical sections ran: strictly increasing.
  for (let i = 1; i < fences.length; i++) expect(fences[i]).toBeGreaterThan(fences[i - 1]!);
  for (const locks of clients) expect(locks.stats()).toMatchObject({ waiters: 0, leases: 0 });
});

it("a lock taken by GET, then SET (check-then-set, no script) lets all 20 racing clients in", async () => {
  const lock = `${fx.test.namespace}:naive-lock`;
  let arrive!: () => void;
  const allChecked = new Promise<void>((resolve) => (arrive = resolve));
  let checked = 0;
  const holders = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const free = (await fx.test.redis.get(lock)) === null;
      if (++checked === 20) arrive();
      await allChecked; // every client has checked before any sets
      if (free) await fx.test.redis.set(lock, `client-${i}`, "PX", 10_000);
      return free;
    }),
  );
  expect(holders.filter(Boolean)).toHaveLength(20); // one holder at a time is broken
});
