// /import in the operator group (features/operator/catalog-import.ts): a catalog file with the
// caption /import gets its dry run and an Import button; only an owner, or an admin with the
// right, may do either; a refused file changes nothing and offers no button.
import { describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";

let h: BotHarness, group: SimulatedGroup;
let owner: SimulatedUser, admin: SimulatedUser;
useOperatorGroup({ bind: "core" }, (opened) => ({ h, owner, admin, group } = opened));

const HEADER = "sku,title_en,title_zh,category,price,currency,kind,stock,photo";
const FILE = [
  HEADER,
  "NEW-KETTLE,Electric kettle,电热水壶,teaware,40,XTR,digital,5,",
  "CUP-CELADON,Celadon tea cup,青瓷茶杯,teaware,16,XTR,digital,50,",
].join("\n");

const catalog = async () =>
  (await h.db.product.findMany({ orderBy: { sku: "asc" } })).map((p) => [p.sku, p.priceMinor]);

async function send(user: SimulatedUser, content: string) {
  await user.sendDocument({ in: group, fileName: "catalog.csv", content, caption: "/import" });
  return group.waitForMessage();
}

describe("/import in the operator group", () => {
  it("refuses an admin without the right, changing nothing", async () => {
    const before = await catalog();
    expect((await send(admin, FILE)).text).toBe(
      'Importing a catalog needs an owner, or an admin with the "Add new admins" right. Nothing was changed.',
    );
    expect(await catalog()).toEqual(before);
  });

  it("answers an owner with the dry run and an Import button that only the right may press", async () => {
    const before = await catalog();
    const dry = await send(owner, FILE);
    expect(dry.text).toMatch(
      /^Dry run: 1 to create, 1 to change, 0 unchanged\. NEW-KETTLE, CUP-CELADON$/,
    );
    expect(await catalog()).toEqual(before);

    const refused = await admin.press("Import", { in: group, messageId: dry.message_id });
    expect((await refused.answered()).text).toContain("Importing a catalog needs an owner");
    expect(await catalog()).toEqual(before);

    await owner.press("Import", { in: group, messageId: dry.message_id });
    expect((await group.waitForMessage(/^Imported/)).text).toBe(
      "Imported: 1 created, 1 changed, 0 unchanged. NEW-KETTLE, CUP-CELADON",
    );
    const after = Object.fromEntries(await catalog());
    expect(after).toMatchObject({ "NEW-KETTLE": 40, "CUP-CELADON": 16 });
  });

  it("lists each refused row with its line and reason, imports nothing and offers no button", async () => {
    const before = await catalog();
    const reply = await send(owner, `${FILE}\nNEW-CUP,Cup,杯子,teaware,twelve,XTR,digital,5,`);
    expect(reply.text).toBe(
      "Nothing was imported: 1 row is refused.\n4 NEW-CUP: price: not an amount in that currency",
    );
    expect(reply.reply_markup).toBeUndefined();
    expect(await catalog()).toEqual(before);
  });

  it("words a refused row in the group's language", async () => {
    const { version } = (await h.shop.groups.get(group.id))!;
    const zh = { chatId: group.id, patch: { language: "zh" as const }, actor: owner.id };
    expect((await h.shop.groups.updateSettings({ ...zh, expectedVersion: version })).status).toBe(
      "ok",
    );
    try {
      const reply = await send(owner, `${FILE}\nNEW-BOWL,Bowl,碗,nowhere,12,XTR,digital,5,`);
      expect(reply.text).toContain("4 NEW-BOWL: 分类：nowhere 不存在");
    } finally {
      const { version: now } = (await h.shop.groups.get(group.id))!;
      const en = { ...zh, patch: { language: "en" as const }, expectedVersion: now };
      await h.shop.groups.updateSettings(en);
    }
  });
});
