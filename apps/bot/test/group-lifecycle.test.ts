// The operator group's own life, through the fake Telegram: upgraded to a supergroup, the shop
// follows it (binding, settings, unsent alerts); the bot removed from it, the owners are told
// privately and the alerts it can no longer receive are kept as dead letters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedUser } from "@orderbot/fake-telegram";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";

let h: BotHarness;
let owner: SimulatedUser;
beforeAll(async () => {
  h = await startBotHarness();
  owner = h.kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
  await owner.send("/start");
  await owner.waitForMessage();
});
afterAll(() => h?.close());

const alert = (chatId: number, key: string) =>
  h.db.outboxMessage.create({
    data: {
      dedupeKey: key,
      chatId: BigInt(chatId),
      method: "notify",
      payload: { template: "operator-low-stock", params: {} },
      nextAttemptAt: new Date(Date.now() + 3_600_000), // not due: the worker is not running here
    },
  });

describe("the operator group upgraded to a supergroup", () => {
  it("moves the binding and its unsent alerts to the new id, and commands there work", async () => {
    const group = h.kit.createGroup({ title: "Ops", type: "group", creator: owner });
    await owner.send("/bind", { in: group });
    await group.waitForMessage(/operator group/);
    await alert(group.chatId, `lifecycle:upgrade:${group.chatId}`);

    const { supergroup, migrateTo, migrateFrom } = group.upgradeToSupergroup(owner);
    expect((await migrateTo.handled()).status).toBe("delivered");
    expect((await migrateFrom.handled()).status).toBe("delivered");
    expect((await supergroup.waitForMessage()).text).toBe(
      "This group is now a supergroup. The shop's binding, settings and pending alerts moved here with it.",
    );

    expect(await h.shop.groups.get(group.chatId)).toBeNull();
    expect(await h.shop.groups.get(supergroup.chatId)).toMatchObject({ title: "Ops" });
    const moved = await h.db.outboxMessage.findUniqueOrThrow({
      where: { dedupeKey: `lifecycle:upgrade:${group.chatId}` },
    });
    expect(moved.chatId).toBe(BigInt(supergroup.chatId));
    // An operator command in the supergroup finds the binding.
    await owner.send("/orders", { in: supergroup });
    expect((await supergroup.waitForMessage()).text).not.toMatch(/not the shop's operator group/);
  });
});

describe("the bot removed from the operator group", () => {
  it("tells the owners privately and keeps the group's pending alerts as dead letters", async () => {
    const group = h.kit.createGroup({ title: "Ops team", creator: owner });
    await owner.send("/bind", { in: group });
    await group.waitForMessage(/operator group/);
    await alert(group.chatId, `lifecycle:removed:${group.chatId}:1`);
    await alert(group.chatId, `lifecycle:removed:${group.chatId}:2`);

    expect((await group.setBotStatus("kicked").handled()).status).toBe("delivered");
    expect((await owner.waitForMessage(/removed from the operator group/)).text).toBe(
      "The bot was removed from the operator group “Ops team”. 2 pending alerts could not be delivered there and are kept as dead letters. Add the bot back as an admin of the group to receive alerts again.",
    );
    const rows = await h.db.outboxMessage.findMany({
      where: { dedupeKey: { startsWith: `lifecycle:removed:${group.chatId}:` } },
    });
    expect(rows.map((r) => r.status)).toEqual(["DEAD", "DEAD"]);
    expect(await h.shop.groups.get(group.chatId)).not.toBeNull();
  });
});
