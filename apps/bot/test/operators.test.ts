// The operator group: binding, the admin check, and the commands, in-process over real HTTP,
// PostgreSQL and Redis, with groups and admins from the test kit.
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { withinOneUtcDay } from "@orderbot/testkit";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";
import { eventsOf } from "./support/events.ts";

let h: BotHarness, kit: FakeTelegram, group: SimulatedGroup;
let owner: SimulatedUser, admin: SimulatedUser, admin2: SimulatedUser, member: SimulatedUser;
useOperatorGroup(
  {
    title: "Shop operators",
    admins: [{ firstName: "Admin" }, { firstName: "Admin2" }],
    bind: "none",
  },
  (opened) => {
    ({ h, kit, owner, admin, member, group } = opened);
    admin2 = opened.admins[1]!;
  },
);

const stockOf = async (sku: string) =>
  (await h.db.product.findUniqueOrThrow({ where: { sku } })).stock;

/** Sends a command in the group and returns the bot's reply. */
async function say(user: SimulatedUser, text: string): Promise<string> {
  await user.send(text, { in: group });
  return (await group.waitForMessage()).text ?? "";
}

describe("binding", () => {
  it("refuses operator commands before the group is bound, and /bind from anyone but an owner", async () => {
    expect(await say(admin, "/products")).toBe(
      "This group is not the shop's operator group. An owner can bind it with /bind.",
    );
    expect(await say(admin, "/bind")).toBe("Only the shop's owners can bind a group.");
    expect(await h.db.operatorGroup.count()).toBe(0);
  });

  it("binds the group when an owner asks", async () => {
    expect(await say(owner, "/bind")).toContain("This group is now the shop's operator group");
    expect(
      await h.db.operatorGroup.findUnique({ where: { chatId: BigInt(group.id) } }),
    ).toMatchObject({
      title: "Shop operators",
    });
  });
});

describe("stock and prices", () => {
  it("a /stock whose reply failed is applied once, the update succeeds, and the outbox keeps the reply", async () => {
    const before = await stockOf("TEA-PUER");
    // The reply fails after the change committed (a 429 whose retry_after is beyond what the bot
    // waits for): the update must not fail, or Telegram would deliver it and run it again.
    const failReply = kit.faults.refuseNext("sendMessage", group.id);
    const sent = await admin.send("/stock TEA-PUER +2", { in: group });
    const outcome = await sent.handled();
    expect(outcome).toMatchObject({ status: "delivered" });
    expect(outcome.attempts).toHaveLength(1);
    failReply.remove();
    expect(failReply.injected).toBe(1);
    // The worker's relay sends it later, once, with its own text.
    const queued = await h.db.outboxMessage.findMany({
      where: { chatId: BigInt(group.id), dedupeKey: { startsWith: "reply:" }, status: "PENDING" },
    });
    expect(queued.map((m) => (m.payload as { text: string }).text)).toEqual([
      `TEA-PUER: stock ${before} → ${before + 2}.`,
    ]);
    expect(await stockOf("TEA-PUER")).toBe(before + 2);
    const rows = await h.db.stockMovement.count({
      where: { batchId: `stock:${group.id}:${sent.message.message_id}` },
    });
    expect(rows).toBe(1);
  });

  it("a plain member cannot change stock; an admin can", async () => {
    const before = await stockOf("TEA-PUER");
    expect(await say(member, "/stock TEA-PUER +5")).toBe(
      "Only this group's administrators can do that.",
    );
    expect(await stockOf("TEA-PUER")).toBe(before);
    expect(await say(admin, "/stock TEA-PUER +5")).toBe(
      `TEA-PUER: stock ${before} → ${before + 5}.`,
    );
    expect(await say(admin, "/stock TEA-PUER =3")).toBe(`TEA-PUER: stock ${before + 5} → 3.`);
    expect(await say(admin, "/stock TEA-PUER -4")).toBe(
      "TEA-PUER: cannot remove 4; only 3 are unreserved.",
    );
    expect(await say(admin, "/stock NOPE +1")).toBe("There is no product with SKU NOPE.");
    expect(await say(admin, "/stock TEA-PUER five")).toBe("Usage: /stock SKU +N | -N | =N");
    expect(await stockOf("TEA-PUER")).toBe(3);
    // Down to the group's threshold (3): one event, which the worker delivers to the group.
    const alerts = await eventsOf(h.db, "stock.low:TEA-PUER:");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      kind: "stock.low",
      template: "operator-low-stock",
      params: { sku: "TEA-PUER", stock: 3 },
    });
  });

  it("an owner sets a price; a member, and an admin without the right, cannot", async () => {
    expect(await say(member, "/price CUP-CELADON 18")).toBe(
      "Only this group's administrators can do that.",
    );
    expect(await say(admin, "/price CUP-CELADON 18")).toBe(
      'Prices need an owner, or an admin with the "Add new admins" right. Nothing was changed.',
    );
    expect(await say(owner, "/price CUP-CELADON 18")).toBe("CUP-CELADON: price 15 ⭐ → 18 ⭐.");
    expect(await say(owner, "/price CUP-CELADON -1")).toMatch(
      /^Usage: \/price SKU AMOUNT, for example \/price TEA-LONGJING 25\. Stars are whole numbers/,
    );
    expect(
      (await h.db.product.findUniqueOrThrow({ where: { sku: "CUP-CELADON" } })).priceMinor,
    ).toBe(18);
  });

  it("refuses a price one invoice could not ask, naming the range, and changes nothing", async () => {
    // The owner (the group's creator) here: the admins' commands count towards their rate limit.
    const before = await h.db.product.findUniqueOrThrow({ where: { sku: "MUG-PANDA" } });
    expect(await say(owner, "/price MUG-PANDA 10001")).toBe(
      "MUG-PANDA: 10001 ⭐ is outside what one invoice can ask (1 ⭐ to 10000 ⭐). The price was not changed.",
    );
    const after = await h.db.product.findUniqueOrThrow({ where: { sku: "MUG-PANDA" } });
    expect(after).toMatchObject({ priceMinor: before.priceMinor, version: before.version });
    expect(await h.db.priceChange.count({ where: { productId: before.id } })).toBe(0);
    // The top of the range is a price.
    expect(await say(owner, "/price MUG-PANDA 10000")).toBe("MUG-PANDA: price 12 ⭐ → 10000 ⭐.");
    expect(await say(owner, "/price MUG-PANDA 12")).toBe("MUG-PANDA: price 10000 ⭐ → 12 ⭐.");
  });

  it("lists the products", async () => {
    const text = await say(admin, "/products");
    expect(text).toContain("Products:");
    expect(text).toContain("TEA-PUER · Pu'er cake, 357 g · 60 ⭐ · stock 3");
  });
});

describe("orders", () => {
  beforeAll(() => withinOneUtcDay(30_000)); // the report below counts the order placed here
  it("shows orders by status and one order in detail, and refunds a paid one", async () => {
    const customer = kit.createUser({ languageCode: "en" });
    const placed = await h.shop.orders.placeOrder({
      userId: customer.id,
      chatId: customer.chatId,
      items: [{ sku: "MUG-PANDA", quantity: 2 }],
      idempotencyKey: "operator-test",
    });
    if (placed.status !== "ok") throw new Error(placed.status);
    const id = placed.order.id;
    expect(await say(admin, "/orders reserved")).toContain(`${id} · awaiting payment · 24 ⭐`);
    expect(await say(admin, "/orders nonsense")).toMatch(
      /^Which orders\? Write \/orders alone for the latest, or with a state: reserved \(awaiting payment\), paying \(payment in progress\), paid \(paid\)/,
    );
    await admin.send(`/order ${id}`, { in: group });
    const shown = await group.waitForMessage();
    const detail = shown.text ?? "";
    expect(detail).toContain(`Order ${id} · awaiting payment`);
    expect(detail).toContain("Panda mug × 2: 24 ⭐");
    // Every member reads the reply: the customer is masked, the id is not in it.
    expect(detail).toContain(`Customer: ••••${String(customer.id).slice(-4)}`);
    expect(detail).not.toContain(String(customer.id));
    // The button shows the id to the admin who presses, in a dialog only they see.
    const denied = await member.press("Show customer id", {
      in: group,
      messageId: shown.message_id,
    });
    expect((await denied.answered()).text).toBe("Only this group's administrators can do that.");
    const revealed = await admin.press("Show customer id", {
      in: group,
      messageId: shown.message_id,
    });
    expect(await revealed.answered()).toMatchObject({
      text: `Order ${id}: customer id ${customer.id}`,
      showAlert: true,
    });

    expect(await say(owner, `/refund ${id}`)).toBe(
      `Order ${id} is awaiting payment: only paid orders can be refunded.`,
    );
    const paid = await h.shop.payments.confirmPayment({
      orderId: id,
      userId: customer.id,
      telegramChargeId: "charge-operator-test",
      amount: 24,
      currency: "XTR",
    });
    expect(paid.status).toBe("ok");
    expect(await say(member, `/refund ${id}`)).toBe(
      "Only this group's administrators can do that.",
    );
    // A plain admin (the test kit's admins lack "Add new admins") is refused; an owner may.
    expect(await say(admin, `/refund ${id}`)).toBe(
      'Refunds need an owner, or an admin with the "Add new admins" right. Nothing was changed.',
    );
    expect((await h.db.order.findUniqueOrThrow({ where: { publicId: id } })).status).toBe("PAID");
    expect(await say(owner, `/refund ${id}`)).toBe(
      `Order ${id} is refunded; the customer's payment is being returned.`,
    );
    expect((await h.db.order.findUniqueOrThrow({ where: { publicId: id } })).status).toBe(
      "REFUNDED",
    );
  });

  it("reports today's figures", async () => {
    const text = await say(admin, "/report");
    expect(text).toMatch(
      /^Report for \d{4}-\d\d-\d\d \(UTC\)\nOrders placed: 1 · paid: 0 · cancelled: 0 · expired: 0/,
    );
  });
});

describe("settings", () => {
  it("two admins changing settings at once: one wins, the other is told about the conflict", async () => {
    expect(await say(admin, "/settings")).toBe("Group settings:");
    const { message_id: messageId } = group.lastMessage()!;
    // Both press a button of the same version-0 keyboard before the bot has handled either.
    const presses = await Promise.all([
      admin.press("Paid-order notices: on", { in: group, messageId }),
      admin2.press("+", { in: group, messageId }),
    ]);
    const answers = await Promise.all(presses.map((p) => p.answered()));
    const texts = answers.map((a) => a.text).sort();
    expect(texts).toEqual([
      "Saved.",
      "Someone else changed the settings a moment ago; nothing was saved. Here are the current settings.",
    ]);

    const stored = await h.db.operatorGroup.findUniqueOrThrow({
      where: { chatId: BigInt(group.id) },
    });
    expect(stored.version).toBe(1);
    const settings = stored.settings as { notifyPaidOrders: boolean; lowStockThreshold: number };
    const changes = [settings.notifyPaidOrders === false, settings.lowStockThreshold === 4].filter(
      Boolean,
    );
    expect(changes).toHaveLength(1);
    expect(group.lastMessage()!.text).toBe("Group settings:");
  });

  it("a plain member cannot change settings", async () => {
    const { message_id: messageId } = group.lastMessage()!;
    const press = await member.press("+", { in: group, messageId });
    expect(await press.answered()).toMatchObject({
      text: "Only this group's administrators can do that.",
      showAlert: true,
    });
    expect(
      (await h.db.operatorGroup.findUniqueOrThrow({ where: { chatId: BigInt(group.id) } })).version,
    ).toBe(1);
  });
});

describe("the admin list", () => {
  it("follows promotions and demotions at once, not when the cached list expires", async () => {
    expect(await say(admin2, "/stock FAN-SILK +1")).toMatch(/^FAN-SILK: stock/);
    await group.demote(admin2).handled();
    expect(await say(admin2, "/stock FAN-SILK +1")).toBe(
      "Only this group's administrators can do that.",
    );
    await group.promote(member).handled();
    expect(await say(member, "/stock FAN-SILK +1")).toMatch(/^FAN-SILK: stock/);
  });
});

describe("refusals", () => {
  /** The group's language setting, as an owner sets it with /settings. */
  async function groupLanguage(language: "en" | "zh") {
    const { version } = (await h.shop.groups.get(group.id))!;
    const patch = { language };
    const set = await h.shop.groups.updateSettings({
      chatId: group.id,
      patch,
      expectedVersion: version,
      actor: owner.id,
    });
    expect(set.status).toBe("ok");
  }

  it("words an input core refused in the group's language, naming field and bound", async () => {
    const before = await stockOf("TEA-PUER");
    expect(await say(admin, "/stock TEA-PUER +5000000")).toBe(
      "That was not accepted: units: at most 1,000,000",
    );
    await groupLanguage("zh");
    try {
      expect(await say(admin, "/stock TEA-PUER +5000000")).toBe("未被接受：数量：最多 1,000,000");
      expect(await say(admin, "/category add bad_slug! Tea | 茶")).toBe(
        "未被接受：标识：1 至 32 个 a-z、0-9 或“-”，以字母或数字开头",
      );
    } finally {
      await groupLanguage("en");
    }
    expect(await stockOf("TEA-PUER")).toBe(before);
  });
});

describe("/unbind", () => {
  it("is refused to anyone but an owner, asks an owner to confirm, then unbinds the group", async () => {
    // An admin who is not an owner.
    const admin = kit.createUser({ firstName: "Admin3", languageCode: "en" });
    await group.promote(admin).handled();
    expect(await say(admin, "/unbind")).toBe(
      "Only the shop's owners can unbind the operator group.",
    );
    await owner.send("/unbind", { in: group });
    const confirm = await group.waitForMessage(/^Unbind this group\?/);
    // Nothing changes until an owner presses the button, and an admin's press changes nothing.
    expect(await h.db.operatorGroup.count({ where: { chatId: BigInt(group.id) } })).toBe(1);
    const denied = await admin.press("Yes, unbind", { in: group, messageId: confirm.message_id });
    expect((await denied.answered()).text).toBe(
      "Only the shop's owners can unbind the operator group.",
    );
    expect(await h.db.operatorGroup.count({ where: { chatId: BigInt(group.id) } })).toBe(1);
    await owner.press("Yes, unbind", { in: group, messageId: confirm.message_id });
    expect((await group.waitForMessage(/^This group is no longer/)).text).toBe(
      "This group is no longer the shop's operator group. An owner can bind it again with /bind.",
    );
    expect(await h.db.operatorGroup.count({ where: { chatId: BigInt(group.id) } })).toBe(0);
    expect(await say(admin, "/orders")).toBe(
      "This group is not the shop's operator group. An owner can bind it with /bind.",
    );
    expect(await say(owner, "/unbind")).toBe(
      "This group is not the shop's operator group. An owner can bind it with /bind.",
    );
  });
});
