// The per-user rate limit's counter, on the shared Redis: it always expires with its window, even
// when a command after the count fails, so nobody stays limited for good.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger, type Redis } from "@orderbot/platform";
import { createTestRedis, type TestRedis } from "@orderbot/testkit";
import type { BotContext } from "../src/bot/context.ts";
import { rateLimit } from "../src/bot/middleware/rate-limit.ts";

let t: TestRedis;
beforeAll(async () => {
  t = await createTestRedis();
});
afterAll(() => t.cleanup());

/** A message from user 42 through the middleware: whether it got through. */
async function send(middleware: ReturnType<typeof rateLimit>): Promise<boolean> {
  let passed = false;
  const ctx = {
    from: { id: 42 },
    msg: { text: "hi" },
    logger: silentLogger,
    t: (key: string) => key,
  };
  await middleware(ctx as unknown as BotContext, async () => {
    passed = true;
  });
  return passed;
}

describe("rate limit", () => {
  it("gives every count its window's expiry with the count itself, so a failed PEXPIRE cannot limit a user for good", async () => {
    // A client on which a separate PEXPIRE always fails (a blip right after the INCR).
    const redis = new Proxy(t.redis, {
      get(target, property, receiver) {
        if (property === "pexpire") return () => Promise.reject(new Error("connection reset"));
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function"
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value;
      },
    }) as unknown as Redis;
    const prefix = `${t.namespace}:ratelimit:`;
    const middleware = rateLimit({ redis, prefix, mask: () => "user-42", limit: 2, windowMs: 300 });
    expect([await send(middleware), await send(middleware), await send(middleware)]).toEqual([
      true,
      true,
      false,
    ]);
    const ttl = await t.redis.pttl(`${prefix}user-42`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await send(middleware)).toBe(true); // a new window
  });
});
