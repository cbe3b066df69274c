// The wall clock steps (NTP, an operator, a VM restored): Date.now() is moved here, as the OS clock
// cannot be. Leases and the breaker count on the monotonic clock, so a step changes nothing.
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { Redis } from "ioredis";
import { CircuitBreaker } from "../src/layers/circuit-breaker.ts";
import { sleep, wrappedManager } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();
const wallClock = Date.now;
let behind = 0; // how far the stepped clock is behind the real one
const stepBack = (ms: number) => void (behind += ms);
beforeEach(() => {
  behind = 0;
  vi.spyOn(Date, "now").mockImplementation(() => wallClock() - behind);
});
afterEach(() => vi.restoreAllMocks());

/** `redis`, stepping the wall clock back `ms` when the first script reply arrives (EVAL after a NOSCRIPT too). */
function stepOnReply(redis: Redis, ms: number): Redis {
  let stepped = false;
  return new Proxy(redis, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
      if (property !== "evalsha" && property !== "eval") return method;
      return async (...args: unknown[]) => {
        const reply = await method(...args);
        if (!stepped) stepBack(ms);
        stepped = true;
        return reply;
      };
    },
  });
}

it("a lease whose clock stepped back 5 s during the acquire is lost when Redis expires the lock", async () => {
  const { locks, close } = await wrappedManager(fx, (redis) => stepOnReply(redis, 5000));
  const resource = { kind: "order", id: "stepped-back" };
  const result = await locks.acquire(resource, { ttlMs: 300, waitMs: 0 });
  if (!result.ok) throw new Error("must acquire");
  while ((await fx.test.redis.exists(result.lease.key)) === 1) await sleep(10); // Redis's own clock
  expect(result.lease.held).toBe(false);
  expect(result.lease.signal.aborted).toBe(true);
  const rival = await (await fx.make()).acquire(resource, { waitMs: 0 });
  if (!rival.ok) throw new Error("the rival must get the expired lock");
  expect(rival.lease.fence).toBeGreaterThan(result.lease.fence);
  await rival.lease.release();
  await close();
});

it("a breaker opened before the clock stepped back half-opens after its cool-down", async () => {
  const breaker = new CircuitBreaker({ failureThreshold: 1, coolDownMs: 50 });
  breaker.failure();
  expect(breaker.state).toBe("open");
  stepBack(60_000);
  let polls = 0;
  while (breaker.state === "open" && polls++ < 300) await sleep(10);
  expect(breaker.state).toBe("half-open");
});
