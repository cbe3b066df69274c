// The default LOCK_NAMESPACE names the bot, not only the environment: two bots on one Redis,
// neither with a namespace set, never share a lock key (tests/redis-topologies/two-bots.test.ts
// shows what sharing one Redis then looks like). The worker's config derives it the same way
// (`withLockNamespace`, @orderbot/platform).
import { describe, expect, it } from "vitest";
import { lockNamespaceFor } from "@orderbot/platform";
import { parseBotConfig } from "../src/config.ts";

const BASE = {
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/orderbot",
  REDIS_URL: "redis://127.0.0.1:6379",
  LOCK_HASH_KEY: "a-hash-key-of-16+-chars",
};
const SHOP_A = "123456789:AAtest-token-value_0123456789";
const SHOP_B = "987654321:AAtest-token-value_0123456789";

describe("default LOCK_NAMESPACE", () => {
  it("is the environment and the bot id, from NODE_ENV and the token's public part", () => {
    expect(parseBotConfig({ ...BASE, BOT_TOKEN: SHOP_A }).LOCK_NAMESPACE).toBe("dev:bot123456789");
    const prod = { ...BASE, BOT_TOKEN: SHOP_A, NODE_ENV: "production", BOT_MODE: "polling" };
    expect(parseBotConfig(prod).LOCK_NAMESPACE).toBe("prod:bot123456789");
    expect(lockNamespaceFor("test", SHOP_B)).toBe("test:bot987654321");
  });

  it("differs between two bots", () => {
    const botA = parseBotConfig({ ...BASE, BOT_TOKEN: SHOP_A }).LOCK_NAMESPACE;
    const botB = parseBotConfig({ ...BASE, BOT_TOKEN: SHOP_B }).LOCK_NAMESPACE;
    expect(botA).not.toBe(botB);
  });

  it("never carries the token's secret part", () => {
    const namespace = parseBotConfig({ ...BASE, BOT_TOKEN: SHOP_A }).LOCK_NAMESPACE;
    expect(namespace).not.toContain("AAtest");
  });

  it("keeps a namespace set by hand, and treats an empty one as unset", () => {
    expect(
      parseBotConfig({ ...BASE, BOT_TOKEN: SHOP_A, LOCK_NAMESPACE: "prod:tea-shop" })
        .LOCK_NAMESPACE,
    ).toBe("prod:tea-shop");
    expect(parseBotConfig({ ...BASE, BOT_TOKEN: SHOP_A, LOCK_NAMESPACE: "" }).LOCK_NAMESPACE).toBe(
      "dev:bot123456789",
    );
  });
});
