// Starting the bot: a cosmetic call that fails does not stop it, polling does not take updates away
// from a webhook nobody chose to replace, and a Redis too old for the rate limiter is refused.
import { afterEach, describe, expect, it } from "vitest";
import {
  checkRedisVersion,
  RedisTooOldError,
  WebhookInUseError,
  assertRedisVersion,
} from "../src/startup.ts";
import { silentLogger } from "@orderbot/platform";
import { createTestRedis } from "@orderbot/testkit";
import { startBotHarness, type BotHarness } from "./support/harness.ts";

const PRODUCTION_WEBHOOK = "https://shop.example.com/telegram/webhook";

let harness: BotHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("polling start next to a webhook", () => {
  it("refuses to delete a webhook when BOT_MODE=polling is only .env.example's default", async () => {
    harness = await startBotHarness({ mode: "polling", defaulted: ["BOT_MODE"], start: false });
    harness.kit.setWebhook({ url: PRODUCTION_WEBHOOK });
    await expect(harness.app.start()).rejects.toThrow(WebhookInUseError);
    expect(harness.kit.webhookInfo().url).toBe(PRODUCTION_WEBHOOK);
    expect(harness.kit.callsTo("deleteWebhook")).toHaveLength(0);
    expect(harness.kit.callsTo("getUpdates")).toHaveLength(0);
  });

  it("takes over when BOT_MODE=polling was chosen, and starts on the default when no webhook is set", async () => {
    harness = await startBotHarness({ mode: "polling", start: false });
    harness.kit.setWebhook({ url: PRODUCTION_WEBHOOK });
    await harness.app.start();
    expect(harness.kit.webhookInfo().url).toBe("");
    await harness.close();

    harness = await startBotHarness({ mode: "polling", defaulted: ["BOT_MODE"], start: false });
    await harness.app.start();
    expect(harness.kit.callsTo("getWebhookInfo")).toHaveLength(1);
  });
});

describe("the command menus at start", () => {
  for (const [what, fault] of [
    ["429 (many replicas restarting)", { rate429: 1, retryAfter: 60 }],
    ["404 (a Bot API server without the method)", { unimplemented: true }],
  ] as const) {
    it(`starts, and receives updates, when setMyCommands answers ${what}`, async () => {
      harness = await startBotHarness({ mode: "webhook", start: false });
      const refused = harness.kit.faults.set({ method: "setMyCommands", ...fault });
      await harness.app.start();
      expect(refused.injected).toBeGreaterThan(0);
      expect(harness.kit.webhookInfo().url).not.toBe("");
      const user = harness.kit.createUser();
      await user.send("/start");
      await expect(user.waitForMessage()).resolves.toBeDefined();
    });
  }
});

describe("the webhook at start", () => {
  it("sets max_connections from the replicas and the pool, as getWebhookInfo shows", async () => {
    harness = await startBotHarness({
      mode: "webhook",
      env: { BOT_REPLICAS: "3", DATABASE_POOL_MAX: "4" },
    });
    expect(harness.kit.webhookInfo().max_connections).toBe(12);
  });
});

describe("the Redis version", () => {
  it("reads redis_version from INFO server and wants 7 or later", () => {
    const info = (version: string) =>
      `# Server\r\nredis_version:${version}\r\nredis_git_sha1:00000000\r\nredis_mode:standalone\r\n`;
    expect(checkRedisVersion(info("7.0.0"))).toEqual({ outcome: "ok", version: "7.0.0" });
    expect(checkRedisVersion(info("8.2.1"))).toEqual({ outcome: "ok", version: "8.2.1" });
    expect(checkRedisVersion(info("6.2.14"))).toEqual({ outcome: "too-old", version: "6.2.14" });
    expect(checkRedisVersion("# Server\r\nredis_mode:standalone\r\n")).toEqual({
      outcome: "unknown",
    });
  });

  it("refuses a Redis 6 at start, and passes the real one", async () => {
    const redis6 = { info: async () => "# Server\r\nredis_version:6.2.14\r\n" };
    await expect(assertRedisVersion(redis6, silentLogger)).rejects.toThrow(RedisTooOldError);
    const real = await createTestRedis();
    try {
      expect(checkRedisVersion(await real.redis.info("server")).outcome).toBe("ok");
      await expect(assertRedisVersion(real.redis, silentLogger)).resolves.toBeUndefined();
    } finally {
      await real.cleanup();
    }
  });
});
