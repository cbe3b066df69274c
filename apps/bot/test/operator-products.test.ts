// /products in the operator group with more products than one Telegram message holds: pages
// with ◀ ▶ buttons, each under 4,096 characters, together listing every product once.
import { beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";

let h: BotHarness;
let admin: SimulatedUser;
let member: SimulatedUser;
let group: SimulatedGroup;
useOperatorGroup(
  { bind: "command", title: "Shop operators" },
  (set) => ({ h, admin, member, group } = set),
);
beforeAll(async () => {
  // Long titles, as a real catalog has: 70 of them took one message past Telegram's limit.
  await h.db.product.createMany({
    data: Array.from({ length: 70 }, (_, i) => ({
      sku: `BULK-${String(i + 1).padStart(3, "0")}`,
      titleEn: `Hand-thrown stoneware tea bowl, celadon glaze, number ${i + 1}`,
      titleZh: `手工拉坯石器茶碗，青瓷釉，第 ${i + 1} 号`,
      priceMinor: 100 + i,
      currency: "XTR",
      stock: i,
    })),
  });
});

const BULK = /BULK-\d{3}/g;

describe("/products", () => {
  it("pages a long listing with buttons, every page under Telegram's 4,096 characters", async () => {
    const total = await h.db.product.count();
    await admin.send("/products", { in: group });
    const first = await group.waitForMessage(/^Products:/);
    expect(first.text).toMatch(/^Products:\nPage 1 of \d+\n/);
    const pages = Number(/Page 1 of (\d+)/.exec(first.text!)![1]);
    expect(pages).toBeGreaterThan(1);

    const texts = [first.text!];
    for (let page = 2; page <= pages; page++) {
      await admin.press("Next ▶", { in: group, messageId: first.message_id });
      const shown = await group.waitForMessage(new RegExp(`Page ${page} of ${pages}`), {
        edits: true,
      });
      texts.push(shown.text!);
    }
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(4096);
    // Every product once, in order, across the pages.
    const listed = texts.flatMap((text) => text.split("\n").slice(2));
    expect(listed).toHaveLength(total);
    expect(texts.join("\n").match(BULK)).toEqual(
      Array.from({ length: 70 }, (_, i) => `BULK-${String(i + 1).padStart(3, "0")}`),
    );
    // The last page has no Next, and Previous goes back.
    await expect(
      admin.press("Next ▶", { in: group, messageId: first.message_id }),
    ).rejects.toThrow();
    await admin.press("◀ Previous", { in: group, messageId: first.message_id });
    await group.waitForMessage(new RegExp(`Page ${pages - 1} of ${pages}`), { edits: true });
  });

  it("refuses a page press from someone who is not an admin", async () => {
    const press = await member.press("Next ▶", { in: group });
    expect((await press.answered()).text).toBe("Only this group's administrators can do that.");
  });
});
