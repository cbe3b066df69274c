// Promo codes through the fake Telegram: operators create, list and turn off codes in the group;
// a customer applies one to the cart (by reply to the bot's question, or /promo CODE), sees the
// discount, checks out and pays the discounted invoice. In-process bot, real PostgreSQL and Redis.
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import { OWNER_ID, type BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";
import { ownerActor } from "@orderbot/core/rights";

let h: BotHarness, kit: FakeTelegram;
let owner: SimulatedUser, member: SimulatedUser, operators: SimulatedGroup;
useOperatorGroup(
  { title: "Shop operators", admins: [], bind: "command" },
  (opened) => ({ h, kit, owner, member, group: operators } = opened),
);

/** What the bot answers an operator's command in the group. */
async function say(text: string): Promise<string> {
  const sent = await owner.send(text, { in: operators });
  const reply = await operators.waitForMessage(
    (m) => m.reply_to_message?.message_id === sent.message.message_id,
  );
  return reply.text!;
}

/** Puts `qty` of `sku` in the buyer's cart and opens it. */
async function fillCart(buyer: SimulatedUser, sku: string, qty: number) {
  const product = await h.db.product.findUniqueOrThrow({ where: { sku } });
  await buyer.send("/catalog");
  await buyer.waitForMessage("Catalog");
  await buyer.pressData(
    callbacks.cartAdd.encode({ productId: product.id, qty, categoryId: 0, page: 1 }),
    { force: true },
  );
  await buyer.send("/cart");
  return buyer.waitForMessage(/Your cart/);
}

type CodeInput = Parameters<BotHarness["shop"]["promotions"]["create"]>[0];

/** The bot's answer to the buyer's `/promo <typed>`: the message that names the code. */
async function promo(buyer: SimulatedUser, typed: string): Promise<string | undefined> {
  await buyer.send(`/promo ${typed}`);
  return (await buyer.waitForMessage(new RegExp(typed.toUpperCase()))).text;
}

describe("operators' /promo", () => {
  it("creates, lists and turns off codes, and refuses bad input with the usage, changing nothing", async () => {
    expect(await say("/promo")).toBe(
      "No promo codes yet. /promo add CODE 10% uses=50 creates one.",
    );
    expect(await say("/promo add sale10 10% uses=2 until=2099-12-31")).toBe(
      "Created: SALE10 −10%: 2 of 2 left, 1 per customer (until 31 Dec 2099)",
    );
    expect(await say("/promo add FIVE 5 uses=10 per=2 min=20")).toBe(
      "Created: FIVE −5 ⭐: 10 of 10 left, 2 per customer (at least 20 ⭐)",
    );
    expect(await say("/promo add sale10 20% uses=5")).toBe(
      "A code SALE10 exists already: nothing changed.",
    );
    for (const bad of [
      "/promo add X1 10% uses=5",
      "/promo add BAD 150% uses=5",
      "/promo add BAD 10%",
      "/promo add BAD 10% uses=5 color=red",
      "/promo add BAD 10% uses=5 until=2026-02-30",
      "/promo frobnicate",
    ])
      expect(await say(bad), bad).toMatch(/\/promo add CODE 10%\|5\.00 uses=50/);
    expect(await h.db.promoCode.count()).toBe(2);
    expect(await say("/promo")).toBe(
      [
        "Promo codes (uses left of total, per customer):",
        "FIVE −5 ⭐: 10 of 10 left, 2 per customer (at least 20 ⭐)",
        "SALE10 −10%: 2 of 2 left, 1 per customer (until 31 Dec 2099)",
      ].join("\n"),
    );
    expect(await say("/promo off five")).toMatch(/^Turned off: FIVE .*, off$/);
    expect(await say("/promo off FIVE")).toMatch(/^Already off: FIVE/);
    expect(await say("/promo off NOPE")).toBe("No code NOPE.");
  });

  it("is for the group's admins only", async () => {
    const sent = await member.send("/promo add MINE 50% uses=100", { in: operators });
    const reply = await operators.waitForMessage(
      (m) => m.reply_to_message?.message_id === sent.message.message_id,
    );
    expect(reply.text).toBe("Only this group's administrators can do that.");
    expect(await h.db.promoCode.findUnique({ where: { code: "MINE" } })).toBeNull();
  });
});

describe("a customer's promo code", () => {
  it("shows the discount on the cart, refuses an old Checkout, and is charged the discounted total", async () => {
    const buyer = kit.createUser({ firstName: "Buyer", languageCode: "en" });
    const cart = await fillCart(buyer, "FAN-SILK", 2);
    expect(cart.text).toContain("Total: 60 ⭐ (2 items)");
    await buyer.press("🏷 Promo code");
    const prompt = await buyer.waitForMessage(/Send your promo code/);
    await buyer.send("sale10", { replyTo: prompt.message_id });
    const applied = await buyer.waitForMessage(/Code SALE10 applied/);
    expect(applied.text).toContain("Code SALE10 applied: 6 ⭐ off. You pay 54 ⭐.");
    expect(applied.text).toContain("Code SALE10 (−10%): −6 ⭐");
    expect(applied.text).toContain("To pay: 54 ⭐");
    const buttons = applied.reply_markup?.inline_keyboard.flat().map((b) => b.text);
    expect(buttons).toContain("✅ Checkout · 54 ⭐");
    expect(buttons).toContain("✕ Code SALE10");

    // The cart message from before the code: its Checkout is refused as "cart-changed".
    const stale = await buyer.pressData(
      cart
        .reply_markup!.inline_keyboard.flat()
        .map((b) => ("callback_data" in b ? b.callback_data : ""))
        .find((d) => d?.startsWith("b:"))!,
      { messageId: cart.message_id },
    );
    expect(await stale.answered()).toMatchObject({ text: expect.stringContaining("changed") });
    expect(await h.db.order.count({ where: { userId: BigInt(buyer.id) } })).toBe(0);

    await buyer.press(/^✅ Checkout · 54/, { messageId: applied.message_id });
    const card = await buyer.waitForMessage(/Order [2-9A-Z]{8}/, { edits: true });
    expect(card.text).toContain("Code SALE10 (−10%): −6 ⭐");
    const id = /Order ([2-9A-Z]{8})/.exec(card.text!)![1]!;
    await buyer.press(/^Pay/);
    const invoice = await buyer.waitForMessage((m) => m.invoice !== undefined);
    expect(invoice.invoice).toMatchObject({ total_amount: 54, currency: "XTR" });
    expect(invoice.invoice?.description).toMatch(/^−10% with code SALE10 \(−6 ⭐\)\n/);
    const payment = await buyer.pay({ invoice });
    if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
    await payment.handled();
    const order = await h.db.order.findUniqueOrThrow({
      where: { publicId: id },
      include: { payments: true, promoUse: true },
    });
    expect(order).toMatchObject({ status: "PAID", totalMinor: 54, discountMinor: 6 });
    expect(order.payments.map((p) => p.amountMinor)).toEqual([54]);
    expect(order.promoUse?.returnedAt).toBeNull();
    expect(
      (await h.db.promoCode.findUniqueOrThrow({ where: { code: "SALE10" } })).remainingUses,
    ).toBe(1);
  });

  it("says why a code is refused, and changes nothing", async () => {
    const buyer = kit.createUser({ firstName: "Again", languageCode: "en" });
    await buyer.send("/promo SALE10");
    expect((await buyer.waitForMessage()).text).toBe(
      "Your cart is empty: add something first, then apply the code.",
    );
    const fiveUses = (code: Omit<CodeInput, "totalUses" | "actor">) =>
      h.shop.promotions.create({ ...code, totalUses: 5, actor: ownerActor(OWNER_ID) });
    await fillCart(buyer, "MUG-PANDA", 1);
    expect(await promo(buyer, "NOSUCH")).toBe(
      "Code NOSUCH cannot be used: there is no such code. Nothing was reserved.",
    );
    await fiveUses({ code: "GONE", kind: "PERCENT", value: 5, currency: null });
    await h.shop.promotions.disable("GONE");
    expect(await promo(buyer, "gone")).toBe(
      "Code GONE cannot be used: it is no longer valid. Nothing was reserved.",
    );
    await fiveUses({ code: "BIG", kind: "FIXED", value: 10, currency: "XTR", minTotalMinor: 100 });
    expect(await promo(buyer, "big")).toBe(
      "Code BIG cannot be used: it needs a cart of at least 100 ⭐. Nothing was reserved.",
    );
    const revision = (await h.shop.cart.view(buyer.id)).revision;
    expect((await h.shop.cart.view(buyer.id)).promo).toBeNull();
    expect(revision).toBe((await h.shop.cart.view(buyer.id)).revision);
  });
});
