// The operator group end to end, over two bot replicas: the admin check and concurrent settings.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { OWNER_ID, startShop, type E2eShop } from "./support/shop.ts";
import { stockOf } from "./support/users.ts";

let shop: E2eShop;
let group: SimulatedGroup;
let admin: SimulatedUser;
let admin2: SimulatedUser;
let member: SimulatedUser;

beforeAll(async () => {
  shop = await startShop({ replicas: 2 });
  const owner = shop.kit.createUser({ id: OWNER_ID, languageCode: "en" });
  admin = shop.kit.createUser({ languageCode: "en" });
  admin2 = shop.kit.createUser({ languageCode: "en" });
  member = shop.kit.createUser({ languageCode: "en" });
  group = shop.kit.createGroup({
    title: "Operators",
    creator: owner,
    admins: [admin, admin2],
    members: [member],
  });
  await owner.send("/bind", { in: group });
  await group.waitForMessage("operator group", { timeoutMs: 10_000 });
});
afterAll(() => shop?.stop());

async function say(user: SimulatedUser, text: string): Promise<string> {
  await user.send(text, { in: group });
  return (await group.waitForMessage(undefined, { timeoutMs: 10_000 })).text ?? "";
}

describe("operators", () => {
  it("a non-admin cannot change stock; an admin can", async () => {
    const before = await stockOf(shop.db, "MOONCAKE-BOX");
    expect(await say(member, "/stock MOONCAKE-BOX +10")).toBe(
      "Only this group's administrators can do that.",
    );
    expect(await stockOf(shop.db, "MOONCAKE-BOX")).toBe(before);
    expect(await say(admin, "/stock MOONCAKE-BOX +10")).toBe(
      `MOONCAKE-BOX: stock ${before} → ${before + 10}.`,
    );
    expect(await stockOf(shop.db, "MOONCAKE-BOX")).toBe(before + 10);
  });

  it("stock taken down to the threshold is reported to the group, through the outbox", async () => {
    expect(await say(admin, "/stock MOONCAKE-BOX =2")).toMatch(/^MOONCAKE-BOX: stock \d+ → 2\.$/);
    await shop.relayOutbox();
    await group.waitForMessage(
      "Low stock: Mooncakes, box of 6 (MOONCAKE-BOX), 2 left (alert at 3).",
      {
        timeoutMs: 10_000,
      },
    );
  });

  it("two admins editing settings at once: one wins, the other is told about the conflict", async () => {
    expect(await say(admin, "/settings")).toBe("Group settings:");
    const { message_id: messageId } = group.lastMessage()!;
    const presses = await Promise.all([
      admin.press("Paid-order notices: on", { in: group, messageId }),
      admin2.press("Language: English", { in: group, messageId }),
    ]);
    const answers = await Promise.all(presses.map((p) => p.answered(10_000)));
    expect(answers.map((a) => a.text).sort()).toEqual([
      "Saved.",
      "Someone else changed the settings a moment ago; nothing was saved. Here are the current settings.",
    ]);
    const stored = await shop.db.operatorGroup.findUniqueOrThrow({
      where: { chatId: BigInt(group.id) },
    });
    expect(stored.version).toBe(1);
    const settings = stored.settings as { notifyPaidOrders: boolean; language: string };
    expect(
      [settings.notifyPaidOrders === false, settings.language === "zh"].filter(Boolean),
    ).toHaveLength(1);
  });
});
