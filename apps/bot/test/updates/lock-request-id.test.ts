// Every lock taken while an update is handled names the update: the pipeline's own `update` lock
// and the locks core takes for the handlers (here `group-admins`, as the operator guard does),
// through the bot's update scope. The warnings an operator reads after an incident carry it.
import { describe, expect, it } from "vitest";
import type { Update } from "grammy/types";
import { createShop, defaultShopConfig, LOCK_KINDS } from "@orderbot/core";
import { useRecordedLocks, useTestDatabase } from "@orderbot/testkit";
import { updateRequestId } from "../../src/updates/scope.ts";
import { testPipeline } from "../support/pipeline.ts";
import { privateText } from "../support/updates.ts";

const HASH_KEY = "lock-request-id-test-0123456789";
const BOT_ID = 4242n;

const testDb = useTestDatabase({ poolMax: 5 });
const fx = useRecordedLocks({ kinds: LOCK_KINDS, hashKey: HASH_KEY });
const config = defaultShopConfig(HASH_KEY); // the shop hashes personal ids with the locks' key

function pipeline(handle: (update: Update) => Promise<void>) {
  return testPipeline({
    botId: BOT_ID,
    db: testDb.db,
    locks: fx.locks,
    redis: fx.redis,
    namespace: fx.namespace,
    limit: 100,
    handle,
  });
}

const message = (updateId: number) => privateText(updateId, "/start", 1_700_000_000);

const notOwner = (kind: string) =>
  fx.lines.filter(
    (l) => l.level === "warn" && /no longer ours/.test(l.msg ?? "") && l.obj.kind === kind,
  );

describe("lock warnings name the update", () => {
  it("the update lock's not-owner release logs the update id", async () => {
    const run = pipeline(async () => {
      await fx.redis.del(fx.locks.keyFor({ kind: "update", id: `${BOT_ID}:9001` }));
    });
    expect(await run(message(9001))).toBe("handled");
    expect(notOwner("update").map((l) => l.obj.requestId)).toEqual(["update:9001"]);
  });

  it("a lock core takes for a handler (group-admins) logs the same update id", async () => {
    const shop = createShop({ db: testDb.db, locks: fx.locks, requestId: updateRequestId, config });
    const chatId = -100_555_001n;
    await testDb.db.operatorGroup.create({
      data: { chatId, title: "Ops", adminIds: [], boundBy: 1n },
    });
    const run = pipeline(async () => {
      await shop.groups.refreshAdmins(chatId, async () => {
        await fx.redis.del(fx.locks.keyFor({ kind: "group-admins", id: chatId }));
        return [1];
      });
    });
    expect(await run(message(9002))).toBe("handled");
    expect(notOwner("group-admins").map((l) => l.obj.requestId)).toEqual(["update:9002"]);
  });
});
