// The catalog by category, search, the cart and checkout, driven by simulated users through the
// fake Telegram, with the whole bot in-process over real HTTP, PostgreSQL and Redis.
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import type { BotHarness } from "./support/harness.ts";
import { useBotHarness } from "./support/operators.ts";

let h: BotHarness, kit: FakeTelegram;
useBotHarness({}, (opened) => ({ h, kit } = opened));

const stockOf = async (sku: string) =>
  (await h.db.product.findUniqueOrThrow({ where: { sku } })).stock;
const ordersOf = (user: SimulatedUser) =>
  h.db.order.findMany({ where: { userId: BigInt(user.id) }, include: { items: true } });

/** Finds a product by a word of its name and opens its card. */
async function openBySearch(user: SimulatedUser, words: string, title: string) {
  await user.send(words);
  await user.waitForMessage(/^(Found|“)|共找到/);
  await user.press(title);
  await user.waitForMessage(/Quantity: 1,|数量：1，/, { edits: true });
}

describe("the catalog", () => {
  it("opens on the categories, nests one level, and every screen has a way back", async () => {
    const user = kit.createUser({ languageCode: "en" });
    await user.send("/catalog");
    const root = await user.waitForMessage("Catalog: pick a category.");
    expect(user.view().buttons).toEqual([
      "Tea (12)",
      "Teaware (9)",
      "Sweets and snacks (7)",
      "Crafts (6)",
      "Home and kitchen (6)",
    ]);
    await user.press("Tea (12)", { messageId: root.message_id });
    const tea = await user.waitForMessage(/^Tea, page 1 of 1:/, { edits: true });
    expect(tea.text).toContain("Tea tasting sampler, 8 kinds: 40 ⭐ (25 left)");
    expect(user.view().buttons).toEqual([
      "Green and white tea (5)",
      "Oolong, black and dark tea (5)",
      "Tea tasting sampler, 8 kinds",
      "Chrysanthemum flowers, 50 g",
      "◀ Catalog",
    ]);
    await user.press("Oolong, black and dark tea (5)");
    await user.waitForMessage(/^Oolong, black and dark tea, page 1 of 1:/, { edits: true });
    await user.press("Keemun black tea, 100 g");
    await user.waitForMessage("Quantity: 1, total 26 ⭐", { edits: true });
    // Back from the card to its subcategory, from there to Tea, from Tea to the categories.
    await user.press("◀ Back");
    await user.waitForMessage(/^Oolong, black and dark tea, page 1/, { edits: true });
    await user.press("◀ Back");
    await user.waitForMessage(/^Tea, page 1/, { edits: true });
    await user.press("◀ Catalog");
    await user.waitForMessage("Catalog: pick a category.", { edits: true });
  });

  it("finds a product by a word of its Chinese title, and pages search results", async () => {
    const li = kit.createUser({ languageCode: "zh" });
    await li.send("/search 紫砂");
    const found = await li.waitForMessage("“紫砂”共找到 1 件，第 1/1 页：");
    expect(found.text).toContain("宜兴紫砂壶：120 ⭐（剩余 10）");
    await li.press("宜兴紫砂壶");
    await li.waitForMessage("数量：1，合计 120 ⭐", { edits: true });

    const user = kit.createUser({ languageCode: "en" });
    await user.send("/search tea");
    const first = await user.waitForMessage(/^Found \d+ for “tea”, page 1 of \d:/);
    await user.press("Next ▶", { messageId: first.message_id });
    await user.waitForMessage(/^Found \d+ for “tea”, page 2 of/, { edits: true });
  });

  it("passes on plain text that names no product, so a question still gets an answer", async () => {
    const user = kit.createUser({ languageCode: "en" });
    await user.send("hi, do you ship to Berlin?");
    const reply = await user.waitForMessage(() => true);
    expect(reply.text).not.toMatch(/^Found|^Nothing found/);
  });
});

describe("the cart", () => {
  it("fills a cart of 3 products, edits it, and checks out one order of several lines", async () => {
    const user = kit.createUser({ languageCode: "en" });
    const before = await Promise.all(["TEA-PUER", "CUP-CELADON", "MUG-PANDA"].map(stockOf));

    await openBySearch(user, "Pu'er", "Pu'er cake, 357 g");
    await user.press("+");
    await user.waitForMessage("Quantity: 2, total 120 ⭐", { edits: true });
    const add = await user.press("🛒 Add 2 to cart");
    expect((await add.answered()).text).toContain("Added to your cart: Pu'er cake, 357 g, now 2.");
    await user.waitForMessage(/In your cart: 2/, { edits: true });
    // A double tap on Add sets the same line again: still 2.
    await user.pressData(add.data, { force: true, messageId: add.message.message_id });

    await openBySearch(user, "celadon", "Celadon tea cup");
    await user.press("🛒 Add 1 to cart");
    await user.waitForMessage(/In your cart: 1/, { edits: true });
    await openBySearch(user, "panda", "Panda mug");
    await user.press("🛒 Add 1 to cart");
    await user.waitForMessage(/In your cart: 1/, { edits: true });

    await user.press("🛒 Cart (4)");
    const cart = await user.waitForMessage("Your cart:", { edits: true });
    expect(cart.text).toContain("• Pu'er cake, 357 g × 2: 120 ⭐");
    expect(cart.text).toContain("Total: 147 ⭐ (4 items)");
    expect(cart.text).toContain("Nothing is held for you until you check out.");
    // + on the mug's line, then ✕ on the cup's.
    const rows = cart.reply_markup!.inline_keyboard;
    const mugRow = rows.find((r) => r.some((b) => b.text.startsWith("Panda mug")))!;
    await user.pressData((mugRow.at(-2) as { callback_data: string }).callback_data);
    await user.waitForMessage(/Panda mug × 2: 24 ⭐/, { edits: true });
    const cupRow = user
      .lastMessage()!
      .reply_markup!.inline_keyboard.find((r) => r.some((b) => b.text.startsWith("Celadon")))!;
    await user.pressData((cupRow.at(-1) as { callback_data: string }).callback_data);
    const edited = await user.waitForMessage("Total: 144 ⭐ (4 items)", { edits: true });
    expect(edited.text).not.toContain("Celadon");
    expect(await Promise.all(["TEA-PUER", "MUG-PANDA"].map(stockOf))).toEqual([
      before[0],
      before[2],
    ]);

    // A double tap on Checkout: one order.
    const first = await user.press("✅ Checkout · 144 ⭐");
    const second = await user.pressData(first.data, {
      force: true,
      messageId: first.message.message_id,
    });
    await Promise.all([first.handled(), second.handled()]);
    const placed = await user.waitForMessage(/^Order [2-9A-Z]{8}/, { edits: true });
    expect(placed.text).toContain("Pu'er cake, 357 g × 2: 120 ⭐");
    expect(placed.text).toContain("Panda mug × 2: 24 ⭐");
    expect(placed.text).toContain("Total: 144 ⭐");
    const orders = await ordersOf(user);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.items).toHaveLength(2);
    expect(await Promise.all(["TEA-PUER", "CUP-CELADON", "MUG-PANDA"].map(stockOf))).toEqual([
      before[0]! - 2,
      before[1],
      before[2]! - 2,
    ]);
    await user.send("/cart");
    await user.waitForMessage("Your cart is empty.");
  });

  it("reserves nothing when a line sold out meanwhile, names it, and keeps the cart", async () => {
    const user = kit.createUser({ languageCode: "en" });
    await openBySearch(user, "sesame", "Sesame brittle, 200 g");
    await user.press("🛒 Add 1 to cart");
    await user.waitForMessage(/In your cart: 1/, { edits: true });
    await openBySearch(user, "hawthorn", "Hawthorn flakes, 150 g");
    await user.press("+");
    await user.waitForMessage("Quantity: 2,", { edits: true });
    await user.press("🛒 Add 2 to cart");
    await user.waitForMessage(/In your cart: 2/, { edits: true });
    await user.send("/cart");
    await user.waitForMessage("Your cart:");
    // Someone else bought the hawthorn flakes but one.
    await h.db.$transaction([
      h.db.product.update({ where: { sku: "SNACK-HAWTHORN" }, data: { stock: 1 } }),
    ]);
    const sesame = await stockOf("SNACK-SESAME");
    const press = await user.press(/^✅ Checkout/);
    const answer = await press.answered();
    expect(answer.showAlert).toBe(true);
    expect(answer.text).toBe(
      "Not enough in stock: Hawthorn flakes, 150 g (only 1 left). Nothing was reserved, and your cart is unchanged: lower those lines or remove them, then check out again.",
    );
    const shown = await user.waitForMessage(/only 1 left/, { edits: true });
    expect(shown.text).toContain("• Hawthorn flakes, 150 g × 2: 14 ⭐ (only 1 left)");
    expect(shown.text).toContain("• Sesame brittle, 200 g × 1: 10 ⭐");
    expect(await stockOf("SNACK-SESAME")).toBe(sesame);
    expect(await ordersOf(user)).toEqual([]);
  });

  it("keeps a shortage naming several products within a callback answer, the full text in the cart", async () => {
    const user = kit.createUser({ languageCode: "en" });
    const picks = [
      ["sesame", "Sesame brittle, 200 g", "SNACK-SESAME"],
      ["hawthorn", "Hawthorn flakes, 150 g", "SNACK-HAWTHORN"],
      ["pu'er", "Pu'er cake, 357 g", "TEA-PUER"],
    ] as const;
    for (const [words, title] of picks) {
      await openBySearch(user, words, title);
      await user.press("🛒 Add 1 to cart");
      await user.waitForMessage(/In your cart: 1/, { edits: true });
    }
    await user.send("/cart");
    await user.waitForMessage("Your cart:");
    // Sold out meanwhile, all three.
    for (const [, , sku] of picks)
      await h.db.product.update({ where: { sku }, data: { stock: 0 } });
    const press = await user.press(/^✅ Checkout/);
    const answer = await press.answered();
    expect(answer.showAlert).toBe(true);
    expect(answer.text).toBe(
      "Not enough in stock for some lines: the cart below says which. Nothing was reserved.",
    );
    const shown = await user.waitForMessage(/^Not enough in stock: /, { edits: true });
    const [notice] = shown.text!.split("\n\n");
    for (const [, title] of picks) expect(notice).toContain(`${title} (sold out)`);
    expect(notice).toContain("Nothing was reserved, and your cart is unchanged");
    expect(shown.text).toContain("Your cart:");
    expect(await ordersOf(user)).toEqual([]);
  });
});
