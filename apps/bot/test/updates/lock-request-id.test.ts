// Every lock taken while an update is handled names the update: the pipeline's own `update` lock
// and the locks core takes for the handlers (here `group-admins`, as the operator guard does),
// through the bot's update scope. The warnings an operator reads after an incident carry it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Update } from "grammy/types";
import { createShop, LOCK_KINDS, type Shop } from "@orderbot/core";
import { createProcessedUpdates } from "@orderbot/db";
import { createLockManager, type LockLogger, type LockManager } from "@orderbot/lock";
import {
  createMetricsRegistry,
  createRedis,
  silentLogger,
  waitForRedis,
  type Redis,
} from "@orderbot/platform";
import { useTestDatabase, useTestRedis } from "@orderbot/testkit";
import { createBotMetrics } from "../../src/metrics.ts";
import { createUpdatePipeline } from "../../src/updates/pipeline.ts";
import { createRateLimiter } from "../../src/updates/rate-limit.ts";
import { updateRequestId } from "../../src/updates/scope.ts";

const HASH_KEY = "lock-request-id-test-0123456789";
const BOT_ID = 4242n;

type Line = { level: string; obj: Record<string, unknown>; msg?: string };
const lines: Line[] = [];
const recording = Object.fromEntries(
  (["debug", "info", "warn", "error"] as const).map((level) => [
    level,
    (obj: object, msg?: string) => void lines.push({ level, obj: obj as Line["obj"], msg }),
  ]),
) as unknown as LockLogger;

const testDb = useTestDatabase({ poolMax: 5 });
const t = useTestRedis();
let redis: Redis;
let locks: LockManager;
let shop: Shop;

beforeAll(async () => {
  redis = createRedis({ url: t.url, commandTimeoutMs: 1_000 });
  await waitForRedis(redis);
  locks = createLockManager({
    redis,
    namespace: t.namespace,
    kinds: LOCK_KINDS,
    hashKey: HASH_KEY,
    logger: recording,
  });
  shop = createShop({
    db: testDb.db,
    locks,
    requestId: updateRequestId,
    config: { maskKey: HASH_KEY },
  });
});
afterAll(async () => {
  await locks?.close();
  redis?.disconnect();
});

function pipeline(handle: (update: Update) => Promise<void>) {
  return createUpdatePipeline({
    botId: BOT_ID,
    processed: createProcessedUpdates(testDb.db),
    locks,
    rateLimiter: createRateLimiter({
      redis,
      prefix: `${t.namespace}:rate`,
      mask: String,
      limit: 100,
      windowMs: 60_000,
    }),
    refuse: async () => {},
    handle,
    metrics: createBotMetrics(createMetricsRegistry()),
    logger: silentLogger,
  });
}

const message = (updateId: number): Update =>
  ({
    update_id: updateId,
    message: {
      message_id: 1,
      date: 1_700_000_000,
      chat: { id: 5, type: "private", first_name: "A" },
      from: { id: 5, is_bot: false, first_name: "A" },
      text: "/start",
    },
  }) as Update;

const notOwner = (kind: string) =>
  lines.filter(
    (l) => l.level === "warn" && /no longer ours/.test(l.msg ?? "") && l.obj.kind === kind,
  );

describe("lock warnings name the update", () => {
  it("the update lock's not-owner release logs the update id", async () => {
    const run = pipeline(async () => {
      await redis.del(locks.keyFor({ kind: "update", id: `${BOT_ID}:9001` }));
    });
    expect(await run(message(9001))).toBe("handled");
    expect(notOwner("update").map((l) => l.obj.requestId)).toEqual(["update:9001"]);
  });

  it("a lock core takes for a handler (group-admins) logs the same update id", async () => {
    const chatId = -100_555_001n;
    await testDb.db.operatorGroup.create({
      data: { chatId, title: "Ops", adminIds: [], boundBy: 1n },
    });
    const run = pipeline(async () => {
      await shop.groups.refreshAdmins(chatId, async () => {
        await redis.del(locks.keyFor({ kind: "group-admins", id: chatId }));
        return [1];
      });
    });
    expect(await run(message(9002))).toBe("handled");
    expect(notOwner("group-admins").map((l) => l.obj.requestId)).toEqual(["update:9002"]);
  });
});
