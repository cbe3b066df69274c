import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedis, maskId, silentLogger, waitForRedis } from "@orderbot/platform";
import { createTestRedis, startRedisServer, type TestRedis } from "@orderbot/testkit";
import { createLanguagePreferences } from "../../src/index.ts";

const mask = (id: bigint | number) => maskId(id, "language-test-key");
let testRedis: TestRedis;

beforeAll(async () => {
  testRedis = await createTestRedis();
});
afterAll(() => testRedis.cleanup());

describe("language preferences", () => {
  it("remembers each user's choice, keyed without their Telegram id", async () => {
    const prefs = createLanguagePreferences({
      redis: testRedis.redis,
      namespace: testRedis.namespace,
      mask,
      logger: silentLogger,
    });
    expect(await prefs.get(777_000_111)).toBeNull();
    expect(await prefs.set(777_000_111, "zh")).toBe(true);
    expect(await prefs.set(777_000_222, "en")).toBe(true);
    expect(await prefs.get(777_000_111)).toBe("zh");
    expect(await prefs.get(777_000_222n)).toBe("en");
    const keys = await testRedis.redis.keys(`${testRedis.namespace}:lang:*`);
    expect(keys).toHaveLength(2);
    expect(keys.join()).not.toContain("777000");
  });

  it("reads as 'no choice' and reports a failed save when Redis is down", async () => {
    const server = await startRedisServer();
    const redis = createRedis({ url: server.url, commandTimeoutMs: 200 });
    await waitForRedis(redis);
    try {
      const prefs = createLanguagePreferences({
        redis,
        namespace: "down",
        mask,
        logger: silentLogger,
      });
      expect(await prefs.set(1, "zh")).toBe(true);
      await server.stop();
      expect(await prefs.get(1)).toBeNull();
      expect(await prefs.set(1, "en")).toBe(false);
    } finally {
      redis.disconnect();
      await server.dispose();
    }
  });
});
