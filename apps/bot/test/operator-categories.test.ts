// Operators manage the catalog's categories from their group: /categories and /category.
import { describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";

let h: BotHarness;
let admin: SimulatedUser;
let member: SimulatedUser;
let group: SimulatedGroup;
useOperatorGroup({ bind: "command" }, (set) => ({ h, admin, member, group } = set));

const say = async (text: string, expected: string | RegExp) => {
  await admin.send(text, { in: group });
  return group.waitForMessage(expected);
};

describe("/category in the operator group", () => {
  it("adds a category and a subcategory, moves a product, refuses a second level and a used removal", async () => {
    await say("/category add gifts Gifts | 礼品", "Category gifts added: Gifts.");
    await say("/category add gifts/boxes Gift boxes | 礼盒", "Category boxes added: Gift boxes.");
    await say(
      "/category add boxes/deeper Deeper | 更深",
      "boxes is itself inside a category, and categories nest one level only. Add it to a top-level category.",
    );
    await say("/category set mooncake-box boxes", "MOONCAKE-BOX is now in Gift boxes.");
    expect(
      (await h.db.product.findUniqueOrThrow({ where: { sku: "MOONCAKE-BOX" } })).categoryId,
    ).toBe((await h.db.category.findUniqueOrThrow({ where: { slug: "boxes" } })).id);
    await say(
      "/category remove boxes",
      "Category boxes still has 1 product and 0 subcategories. Move them out first (/category set SKU SLUG).",
    );
    const tree = await say("/categories", /^Categories \(slug: title, products\):/);
    expect(tree.text).toContain("gifts: Gifts (1)\n   boxes: Gift boxes (1)");
    await say("/category set MOONCAKE-BOX none", "MOONCAKE-BOX is now in no category.");
    await say("/category remove boxes", "Category boxes removed.");
    await say("/category rename gifts Presents | 礼物", "Category gifts is now called Presents.");
    await say("/category frobnicate", /^\/category add SLUG/);
  });

  it("is for the group's admins only: a member changes nothing", async () => {
    await member.send("/category add nope Nope | 不", { in: group });
    await group.waitForMessage((m) => m.from?.is_bot === true && !/added/.test(m.text ?? ""));
    expect(await h.db.category.findUnique({ where: { slug: "nope" } })).toBeNull();
  });
});

describe("/categories with more categories than one message holds", () => {
  it("lists every one, over several messages that Telegram accepts", async () => {
    const slugs = Array.from(
      { length: 45 },
      (_, i) => `a-category-with-a-long-slug-${String(i).padStart(2, "0")}`,
    );
    await h.db.category.createMany({
      data: slugs.map((slug) => ({
        slug,
        titleEn: `A title as long as titles go, ${slug.slice(-2)}`.padEnd(64, "."),
        titleZh: `很长的类别 ${slug}`,
      })),
    });
    await admin.send("/categories", { in: group });
    await group.waitForMessage(/long-slug-44:/);
    const replies = h.kit
      .chat(group)
      .botMessages.map((m) => m.text ?? "")
      .filter((text) => /long-slug-\d\d:/.test(text));
    expect(replies.length).toBeGreaterThan(1);
    for (const text of replies) expect(text.length).toBeLessThanOrEqual(4096);
    const listed = replies.join("\n").match(/a-category-with-a-long-slug-\d\d(?=:)/g);
    expect(listed).toEqual(slugs);
  });
});
