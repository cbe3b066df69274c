// The shop's rules are one set of settings (core's shop-settings.ts) that the bot and the worker
// both read: one environment gives both processes the same rules, and a bad value is refused by
// either one, by name.
import { describe, expect, it } from "vitest";
import { parseBotConfig } from "@orderbot/bot";
import { shopConfigOf } from "@orderbot/core";
import { configProblems } from "@orderbot/testkit";
import { parseWorkerConfig } from "@orderbot/worker";

const CONNECTIONS = {
  BOT_TOKEN: "123456789:AAtest-token-value_0123456789",
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/orderbot",
  REDIS_URL: "redis://127.0.0.1:6379",
  LOCK_HASH_KEY: "a-hash-key-of-16+-chars",
};

const RULES = {
  OPERATOR_GROUP_ID: "-1002000000001",
  SHIPPING_OPTIONS: JSON.stringify([{ id: "post", title: "Post", price: 900, countries: "*" }]),
  RESERVATION_SECONDS: "40",
  ORDER_MAX_LINES: "4",
  ORDER_MAX_UNITS_PER_LINE: "5",
  ORDER_MAX_TOTAL: "900",
  ORDER_MAX_UNPAID_SHARE: "0.75",
  ORDER_MAX_PAYING_EXTENSIONS: "2",
  PAYMENT_GRACE_MS: "45000",
};

const processes = {
  bot: (env: Record<string, string>) => shopConfigOf(parseBotConfig(env)),
  worker: (env: Record<string, string>) => shopConfigOf(parseWorkerConfig(env)),
};

describe("the shop's settings", () => {
  it("give the bot and the worker the same rules, the payment grace included", () => {
    const env = { ...CONNECTIONS, ...RULES };
    const bot = processes.bot(env);
    expect(processes.worker(env)).toEqual(bot);
    expect(bot).toMatchObject({
      maskKey: CONNECTIONS.LOCK_HASH_KEY,
      fallbackOperatorChatId: -1_002_000_000_001n,
      shippingOptions: [{ id: "post", title: "Post", price: 900 }],
      reservationTtlMs: 40_000,
      maxLines: 4,
      maxUnitsPerLine: 5,
      maxOrderTotalMinor: 900,
      maxUnpaidShare: 0.75,
      maxPayingExtensions: 2,
      paymentGraceMs: 45_000,
    });
  });

  it("have the same defaults in both processes", () => {
    const bot = processes.bot(CONNECTIONS);
    expect(processes.worker(CONNECTIONS)).toEqual(bot);
    expect(bot).toMatchObject({
      reservationTtlMs: 15 * 60_000,
      maxUnpaidShare: 0.5,
      paymentGraceMs: 300_000,
    });
  });

  it("are refused by either process when out of range, by name", () => {
    for (const parse of [parseBotConfig, parseWorkerConfig]) {
      const found = configProblems(() => parse({ ...CONNECTIONS, PAYMENT_GRACE_MS: "10" }));
      expect(found).toEqual([expect.stringMatching(/^PAYMENT_GRACE_MS: /)]);
      const shipping = configProblems(() => parse({ ...CONNECTIONS, SHIPPING_OPTIONS: "[{" }));
      expect(shipping).toEqual([expect.stringMatching(/^SHIPPING_OPTIONS: must be JSON/)]);
    }
  });
});
