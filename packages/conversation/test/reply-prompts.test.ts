import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedis, maskId, silentLogger } from "@orderbot/platform";
import { createTestRedis, type TestRedis } from "@orderbot/testkit";
import { createReplyPrompts } from "../src/index.ts";

const mask = (id: bigint | number) => maskId(id, "reply-prompts-test-key");
const GROUP = -1_002_000_000_123;
const ADA = 7_100_000_555;
const BEN = 7_100_000_666;
let testRedis: TestRedis;

beforeAll(async () => {
  testRedis = await createTestRedis();
});
afterAll(() => testRedis.cleanup());

describe("reply prompts", () => {
  it("keep what each person owes in each chat until answered, under keys without their ids", async () => {
    const prompts = createReplyPrompts({
      redis: testRedis.redis,
      namespace: testRedis.namespace,
      mask,
      logger: silentLogger,
    });
    await prompts.asked(GROUP, ADA, { kind: "ship-note", orderId: "ABCD2345" });
    expect(await prompts.owed(GROUP, ADA)).toEqual({ kind: "ship-note", orderId: "ABCD2345" });
    expect(await prompts.owed(GROUP, BEN)).toBeNull();
    expect(await prompts.owed(-1_002_000_000_999, ADA)).toBeNull();
    const keys = await testRedis.redis.keys(`${testRedis.namespace}:reply:*`);
    expect(keys).toHaveLength(1);
    expect(keys.join()).not.toMatch(/7100000555|1002000000123/);

    await prompts.answered(GROUP, ADA);
    expect(await prompts.owed(GROUP, ADA)).toBeNull();
  });

  it("read a value they did not write as nothing owed", async () => {
    const prompts = createReplyPrompts({
      redis: testRedis.redis,
      namespace: `${testRedis.namespace}:odd`,
      mask,
      logger: silentLogger,
    });
    await prompts.asked(GROUP, ADA, { kind: "refund-note", chargeId: "ch-1" });
    const [key] = await testRedis.redis.keys(`${testRedis.namespace}:odd:reply:*`);
    await testRedis.redis.set(key!, '{"kind":"ship-note"}');
    expect(await prompts.owed(GROUP, ADA)).toBeNull();
  });

  it("cost only the hint when Redis cannot answer", async () => {
    const redis = createRedis({ url: "redis://127.0.0.1:1", commandTimeoutMs: 200 });
    redis.on("error", () => undefined); // refused connections, expected here
    try {
      const prompts = createReplyPrompts({ redis, namespace: "gone", mask, logger: silentLogger });
      await prompts.asked(GROUP, ADA, { kind: "ship-note", orderId: "ABCD2345" });
      expect(await prompts.owed(GROUP, ADA)).toBeNull();
      await prompts.answered(GROUP, ADA);
    } finally {
      redis.disconnect();
    }
  });
});
