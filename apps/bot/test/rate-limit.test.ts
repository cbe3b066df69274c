// The per-user rate limit's counter, on the shared Redis: it always expires with its window, even
// when a command after the count fails, so nobody stays limited for good.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { createLogger, createMetricsRegistry } from "@orderbot/platform";
import { createTestRedis, type TestRedis } from "@orderbot/testkit";
import type { Update } from "grammy/types";
import { createBotMetrics } from "../src/metrics.ts";
import { createRateLimiter, limitedSender, type RateLimiter } from "../src/updates/rate-limit.ts";

let t: TestRedis;
beforeAll(async () => {
  t = await createTestRedis();
});
afterAll(() => t.cleanup());

const from = { id: 42, is_bot: false, first_name: "A" };
const chat = { id: 42, type: "private" as const, first_name: "A" };
const text = (updateId: number): Update => ({
  update_id: updateId,
  message: { message_id: updateId, date: 0, chat, from, text: "hi" },
});

/** A message from user 42 through the limiter: whether it got through. */
let nextId = 1;
function send(limiter: RateLimiter): Promise<boolean> {
  return limiter.admits(text(nextId++));
}

/** A limiter on the test Redis that sees every update as user 42's. */
const user42Limiter = (options: Omit<Parameters<typeof createRateLimiter>[0], "redis" | "mask">) =>
  createRateLimiter({ redis: t.redis, mask: () => "user-42", ...options });

describe("rate limit", () => {
  it("counts each update once, however often it is delivered, and expires with its window", async () => {
    const prefix = `${t.namespace}:ratelimit:`;
    const limiter = user42Limiter({ prefix, limit: 2, windowMs: 300 });
    const first = text(nextId++);
    // Telegram re-sends an update after a 5xx, and the poller retries one while PostgreSQL is
    // down: the same update, let through each time, and counted once.
    expect([
      await limiter.admits(first),
      await limiter.admits(first),
      await limiter.admits(first),
    ]).toEqual([true, true, true]);
    expect([await send(limiter), await send(limiter)]).toEqual([true, false]);
    expect(await limiter.admits(first)).toBe(true); // admitted before, still admitted
    const ttl = await t.redis.pttl(`${prefix}user-42`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    expect(await t.redis.scard(`${prefix}user-42`)).toBe(2); // never more than the limit
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await send(limiter)).toBe(true); // a new window
  });

  it("counts and warns (once, not per update) when Redis refuses the count and it fails open", async () => {
    const prefix = `${t.namespace}:ratelimit-refused:`;
    // A real refusal: the script's set commands on a key holding a string fail (WRONGTYPE).
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
    const middleware = user42Limiter({
      prefix,
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

  it("never limits payments, membership changes or group upgrades, and limits messages and buttons", () => {
    const payment = {
      currency: "XTR",
      total_amount: 1,
      invoice_payload: "p",
      telegram_payment_charge_id: "c",
      provider_payment_charge_id: "",
    };
    const message = { message_id: 1, date: 0, chat, from };
    const exempt: Update[] = [
      {
        update_id: 1,
        pre_checkout_query: {
          id: "q",
          from,
          currency: "XTR",
          total_amount: 1,
          invoice_payload: "p",
        },
      },
      { update_id: 2, message: { ...message, successful_payment: payment } },
      { update_id: 3, message: { ...message, refunded_payment: payment } } as unknown as Update,
      { update_id: 4, message: { ...message, migrate_to_chat_id: -1001 } } as unknown as Update,
      { update_id: 5, message: { ...message, migrate_from_chat_id: -1 } } as unknown as Update,
      {
        update_id: 6,
        chat_member: {
          chat: { id: -1, type: "group", title: "ops" },
          from,
          date: 0,
          old_chat_member: { status: "administrator", user: from },
          new_chat_member: { status: "member", user: from },
        },
      } as unknown as Update,
    ];
    expect(exempt.map(limitedSender)).toEqual(exempt.map(() => undefined));
    const press = {
      update_id: 7,
      callback_query: { id: "q", from, chat_instance: "i", data: "x" },
    } as Update;
    expect([limitedSender(text(8)), limitedSender(press)]).toEqual([42, 42]);
  });
});
