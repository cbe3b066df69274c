// /codes through the fake Telegram: operators load a digital product's pool from a list in the
// message or a .txt/.csv file (read with getFile and a download), once per command message.
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";
import { eventsOf } from "./support/events.ts";

let h: BotHarness, kit: FakeTelegram, group: SimulatedGroup;
let admin: SimulatedUser, member: SimulatedUser;
let seq = 0;
useOperatorGroup({ bind: "command" }, (opened) => ({ h, kit, admin, member, group } = opened));

/** A digital product with no stock and no pool yet. */
async function giftCard(kind: "DIGITAL" | "PHYSICAL" = "DIGITAL"): Promise<string> {
  const sku = `GIFT-${++seq}`;
  await h.db.product.create({
    data: { sku, titleEn: sku, titleZh: sku, priceMinor: 10, currency: "XTR", stock: 0, kind },
  });
  return sku;
}

const pool = async (sku: string) =>
  (await h.db.digitalItem.findMany({ where: { product: { sku } }, orderBy: { id: "asc" } })).map(
    (i) => i.secret,
  );
const stockOf = async (sku: string) =>
  (await h.db.product.findUniqueOrThrow({ where: { sku } })).stock;

describe("/codes", () => {
  it("loads a list from the message, and a re-delivered update adds nothing", async () => {
    const sku = await giftCard();
    const sent = await admin.send(`/codes ${sku}\nAAA-1\n  BBB-2  \n\nAAA-1`, { in: group });
    const reply = await group.waitForMessage(/new codes/);
    expect(reply.text).toBe(
      `${sku}: 2 new codes added to the pool and to the stock (0 already there, 1 repeated in the list).`,
    );
    expect(await pool(sku)).toEqual(["AAA-1", "BBB-2"]);
    expect(await stockOf(sku)).toBe(2);
    // Telegram delivers the same message again (as a new update): the same batch, nothing added.
    expect(
      await h.postUpdate({ ...sent.update, update_id: sent.update.update_id + 1_000_000 }),
    ).toBe(200);
    await group.waitForMessage(/loaded already/);
    expect(await pool(sku)).toEqual(["AAA-1", "BBB-2"]);
    expect(await stockOf(sku)).toBe(2);
    // The pool, counts only: no code is shown in the group.
    await admin.send(`/codes ${sku.toLowerCase()}`, { in: group });
    const shown = await group.waitForMessage(/unused/);
    expect(shown.text).toBe(`${sku}: 2 unused, 0 delivered, 0 revoked; 2 in stock.`);
    const groupTexts = kit
      .chat(group)
      .messages.filter((m) => m.from?.is_bot)
      .map((m) => m.text ?? "");
    expect(groupTexts.some((t) => t.includes("AAA-1"))).toBe(false);
  });

  it("loads a .txt and a .csv file through getFile", async () => {
    const sku = await giftCard();
    await admin.sendDocument({
      in: group,
      fileName: "codes.txt",
      mimeType: "text/plain",
      content: "\uFEFFT-1\r\nT-2\r\n",
      caption: `/codes ${sku}`,
    });
    await group.waitForMessage(/2 new codes/);
    await admin.sendDocument({
      in: group,
      fileName: "export.csv",
      content: 'code,note\n"C,1",first\nT-2,again\n',
      caption: `/codes ${sku}`,
    });
    await group.waitForMessage(/2 new codes added .*1 already there/);
    expect(await pool(sku)).toEqual(["T-1", "T-2", "code", "C,1"]);
    expect(await stockOf(sku)).toBe(4);
    expect(kit.calls.filter((c) => c.method === "getFile")).toHaveLength(2);
  });

  it("refuses lines over the limit by number, other files, physical products and non-admins", async () => {
    const sku = await giftCard();
    // A message holds 4096 characters: one long line in it, two in a file.
    await admin.send(`/codes ${sku}\nOK-1\n${"x".repeat(3501)}`, { in: group });
    const refused = await group.waitForMessage(/Nothing was loaded/);
    expect(refused.text).toBe("Nothing was loaded: line(s) 2 are longer than 3,500 characters.");
    await admin.sendDocument({
      in: group,
      fileName: "codes.txt",
      content: `OK-1\n${"x".repeat(3501)}\n\nOK-2\n${"y".repeat(4000)}\n`,
      caption: `/codes ${sku}`,
    });
    const named = await group.waitForMessage(/line\(s\) 2, 5 /);
    expect(named.text).toBe("Nothing was loaded: line(s) 2, 5 are longer than 3,500 characters.");
    await admin.sendDocument({
      in: group,
      fileName: "codes.pdf",
      content: "%PDF",
      caption: `/codes ${sku}`,
    });
    await group.waitForMessage(/\.txt or \.csv file/);
    const physical = await giftCard("PHYSICAL");
    await admin.send(`/codes ${physical}\nP-1`, { in: group });
    await group.waitForMessage(/not a digital product/);
    await member.send(`/codes ${sku}\nM-1`, { in: group });
    await group.waitForMessage(/admin/i);
    expect(await pool(sku)).toEqual([]);
    expect(await pool(physical)).toEqual([]);
    expect(await stockOf(sku)).toBe(0);
  });

  it("refuses a file of more than 5,000 codes as it reads it, and loads nothing", async () => {
    const sku = await giftCard();
    const codes = Array.from({ length: 5_001 }, (_, i) => `MANY-${i}`);
    await admin.sendDocument({
      in: group,
      fileName: "codes.txt",
      content: `${codes.join("\n")}\n`,
      caption: `/codes ${sku}`,
    });
    const refused = await group.waitForMessage(/Nothing was loaded/);
    expect(refused.text).toBe(
      "Nothing was loaded: the file holds more than 5,000 codes, at most 5,000 in one batch. Please split it.",
    );
    expect(await pool(sku)).toEqual([]);
  });

  it("shows a paid order's codes again to its buyer under /orders, and to nobody else", async () => {
    const sku = await giftCard();
    await admin.send(`/codes ${sku}\nSEE-AAAA-0001\nSEE-BBBB-0002\nSEE-3`, { in: group });
    await group.waitForMessage(/3 new codes/);
    const ann = kit.createUser({ firstName: "Ann", languageCode: "en" });
    await ann.send("/start");
    await ann.waitForMessage();
    const placed = await h.shop.orders.placeOrder({
      userId: ann.id,
      chatId: ann.chatId,
      items: [{ sku, quantity: 2 }],
      idempotencyKey: `codes-view-${sku}`,
    });
    if (placed.status !== "ok") throw new Error(placed.status);
    const order = placed.order;
    expect(
      await h.shop.payments.confirmPayment({
        orderId: order.id,
        userId: ann.id,
        telegramChargeId: `charge-${sku}`,
        amount: order.totalMinor,
        currency: order.currency,
      }),
    ).toMatchObject({ status: "ok" });
    await ann.pressData(callbacks.orderView.encode({ orderId: order.id }), { force: true });
    const shown = await ann.waitForMessage(/Your codes/);
    expect(shown.text).toBe("Your codes:\nSEE-AAAA-0001\nSEE-BBBB-0002");
    // The group's paid-order alert shows a count and masked tails, never a code.
    const [alert] = await eventsOf(h.db, `paid:${order.id}`);
    expect(alert?.facts.codeTails).toEqual(["••••0001", "••••0002"]);
    expect(JSON.stringify(alert?.payload)).not.toContain("SEE-");
    const bob = kit.createUser({ firstName: "Bob", languageCode: "en" });
    await bob.send("/start");
    await bob.waitForMessage();
    const press = await bob.pressData(callbacks.orderView.encode({ orderId: order.id }), {
      force: true,
    });
    expect((await press.answered(5_000)).text).toBe("You have no order with that number.");
    expect(kit.chat(bob).botMessages.some((m) => m.text?.includes("SEE-"))).toBe(false);
  });
});
