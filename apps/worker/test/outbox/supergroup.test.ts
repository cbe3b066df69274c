// An operator group upgraded to a supergroup while a message to it is on its way: Telegram answers
// 400 with `migrate_to_chat_id`. The relay follows the group (its binding and every message still
// addressed to the old id, core's migrateGroup) and sends the message there, instead of
// dead-lettering it. Against the fake Telegram, which answers the old id as Telegram does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api } from "grammy";
import { startFakeTelegram, type FakeTelegram } from "@orderbot/fake-telegram";
import { useTestDatabase } from "@orderbot/testkit";
import { grammyCaller } from "../../src/outbox/api-call.ts";
import { drainOnce, testRelay } from "../support/relay.ts";

const testDb = useTestDatabase({ poolMax: 4 });
let kit: FakeTelegram;
beforeAll(async () => {
  kit = await startFakeTelegram();
});
afterAll(() => kit.close());

describe("a message to a group that became a supergroup", () => {
  it("goes to the supergroup, which the binding follows, and is not dead-lettered", async () => {
    const owner = kit.createUser({ firstName: "Owner" });
    const group = kit.createGroup({ title: "Ops", type: "group", creator: owner });
    await testDb.db.operatorGroup.create({
      data: { chatId: BigInt(group.id), title: "Ops", adminIds: [], boundBy: BigInt(owner.id) },
    });
    await testDb.db.outboxMessage.create({
      data: {
        dedupeKey: "alert:moved",
        chatId: BigInt(group.id),
        method: "sendMessage",
        payload: { text: "Order MOVED234 was paid." },
      },
    });
    const { supergroup } = group.upgradeToSupergroup(owner);
    const relay = testRelay(testDb.db, {
      callApi: grammyCaller(new Api(kit.token, { apiRoot: kit.apiRoot })),
    });
    const summary = await drainOnce(relay);
    expect(summary).toMatchObject({ sent: 1, dead: 0 });
    expect(kit.chat(supergroup).botMessages.map((m) => m.text)).toEqual([
      "Order MOVED234 was paid.",
    ]);
    const row = await testDb.db.outboxMessage.findUniqueOrThrow({
      where: { dedupeKey: "alert:moved" },
    });
    expect([row.status, row.chatId]).toEqual(["SENT", BigInt(supergroup.id)]);
    const bound = await testDb.db.operatorGroup.findMany({ select: { chatId: true } });
    expect(bound.map((g) => g.chatId)).toEqual([BigInt(supergroup.id)]);
  });
});
