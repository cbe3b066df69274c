// The per-user rate limit's counter, on the shared Redis: it always expires with its window, even
// when a command after the count fails, so nobody stays limited for good.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { createLogger, createMetricsRegistry, silentLogger, type Redis } from "@orderbot/platform";
import { createTestRedis, type TestRedis } from "@orderbot/testkit";
import type { BotContext } from "../src/bot/context.ts";
import { rateLimit } from "../src/bot/middleware/rate-limit.ts";
import { createBotMetrics } from "../src/metrics.ts";

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

  it("counts and warns (once, not per update) when Redis refuses the count and it fails open", async () => {
    const prefix = `${t.namespace}:ratelimit-refused:`;
    // A real refusal: INCR on a value that is not a number fails inside the transaction.
    await t.redis.set(`${prefix}user-42`, "not-a-number");
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const registry = createMetricsRegistry();
    const metrics = createBotMetrics(registry);
    const middleware = rateLimit({
      redis: t.redis,
      prefix,
      mask: () => "user-42",
      limit: 1,
      windowMs: 10_000,
      failedOpen: metrics.rateLimitFailOpen,
      logger: createLogger({ level: "info", destination: stream }),
    });
    // Over the limit of 1, all let through: Redis never counted.
    expect([await send(middleware), await send(middleware), await send(middleware)]).toEqual([
      true,
      true,
      true,
    ]);
    const counted = await registry.getSingleMetric("orderbot_rate_limit_fail_open_total")?.get();
    expect(counted?.values[0]?.value).toBe(3);
    const warnings = lines.filter((l) => String(l.msg).includes("failing open"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
    expect(JSON.stringify(warnings)).not.toContain("user-42");
  });
});
