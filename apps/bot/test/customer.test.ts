// Customers' features, driven through the test kit by simulated users, with the whole bot
// in-process over real HTTP, PostgreSQL and Redis.
import { describe, expect, it } from "vitest";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import type { BotHarness } from "./support/harness.ts";
import { useBotHarness } from "./support/operators.ts";

let h: BotHarness, kit: FakeTelegram;
useBotHarness({}, (opened) => ({ h, kit } = opened));

const stockOf = async (sku: string) =>
  (await h.db.product.findUniqueOrThrow({ where: { sku } })).stock;

describe("a customer", () => {
  it("goes from /start to a paid order, and sees it paid in /orders", async () => {
    const alice = kit.createUser({ firstName: "Alice", languageCode: "en" });
    const before = await stockOf("TEA-LONGJING");

    await alice.send("/start");
    await alice.waitForMessage("Welcome, Alice!");
    await alice.send("/catalog");
    await alice.waitForMessage("Catalog: pick a category.");
    await alice.press(/^Tea \(\d+\)$/);
    await alice.waitForMessage(/^Tea, page 1 of 1/, { edits: true });
    await alice.press(/^Green and white tea \(\d+\)$/);
    await alice.waitForMessage(/^Green and white tea, page 1 of 1/, { edits: true });
    await alice.press("Longjing green tea, 100 g");
    await alice.waitForMessage(/Quantity: 1, total 25 ⭐/, { edits: true });
    await alice.press("+");
    await alice.waitForMessage(/Quantity: 2, total 50 ⭐/, { edits: true });
    const order = await alice.press("Order 2 for 50 ⭐");
    const placed = await alice.waitForMessage(/Order [2-9A-Z]{8}/, {
      edits: true,
      after: undefined,
    });
    expect((await order.answered()).showAlert).toBe(false);
    const id = /Order ([2-9A-Z]{8})/.exec(placed.text!)![1]!;
    expect(placed.text).toContain("Longjing green tea, 100 g × 2: 50 ⭐");
    expect(placed.text).toContain("Total: 50 ⭐");
    expect(placed.text).toMatch(/Held for you for 15 minutes, until \d\d:\d\d \(UTC\)/);
    expect(await stockOf("TEA-LONGJING")).toBe(before - 2);

    await alice.press("Pay 50 ⭐");
    const invoice = await alice.waitForMessage((m) => m.invoice !== undefined);
    expect(invoice.invoice).toMatchObject({
      currency: "XTR",
      total_amount: 50,
      title: `Order ${id}`,
    });
    const payment = await alice.pay();
    expect(payment.status).toBe("paid");
    await alice.waitForMessage(`Payment received: order ${id} is paid.`);

    await alice.send("/orders");
    const list = await alice.waitForMessage("Your orders:");
    expect(list.text).toContain(`${id} · paid · 50 ⭐`);
    const stored = await h.db.order.findUniqueOrThrow({
      where: { publicId: id },
      include: { payments: true },
    });
    expect(stored.status).toBe("PAID");
    expect(stored.payments.map((p) => p.status)).toEqual(["CAPTURED"]);
  });

  it("is spoken to in Chinese when Telegram says so, and can switch with /language", async () => {
    const li = kit.createUser({ firstName: "Li", languageCode: "zh-hans" });
    await li.send("/start");
    await li.waitForMessage("欢迎，Li！");
    await li.send("/language");
    await li.waitForMessage("请选择语言：");
    await li.press("English");
    await li.waitForMessage("Language set to English.", { edits: true });
    await li.send("/help");
    await li.waitForMessage("/catalog: products, prices and stock");
  });

  it("gets a hint for what it does not understand, and is told a shared phone number is not needed", async () => {
    const bob = kit.createUser({ languageCode: "en" });
    await bob.send("hello?");
    await bob.waitForMessage("I did not understand that.");
    // The kit's users cannot share a contact: post the update Telegram would send.
    const status = await h.postUpdate({
      update_id: 990_000_001,
      message: {
        message_id: 9_000,
        date: Math.floor(Date.now() / 1000),
        chat: { id: bob.chatId, type: "private", first_name: bob.user.first_name },
        from: bob.user,
        contact: { phone_number: "+15550100123", first_name: bob.user.first_name, user_id: bob.id },
      },
    });
    expect(status).toBe(200);
    await bob.waitForMessage("the shop does not need your phone number");
  });
});
