// /refunds in the operator group: every refund owed that needs a person, a button to send a
// refused Stars refund again and one to mark a refund made by hand (with a note by reply), and
// `/refunded CHARGE_ID note` typed. Admins may list; only owners and admins with the refund
// right (the group's creator here: the test kit's admins lack "Add new admins") may act.
import { describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";

let h: BotHarness, group: SimulatedGroup;
let owner: SimulatedUser, admin: SimulatedUser, member: SimulatedUser;
useOperatorGroup({ bind: "core" }, (opened) => ({ h, owner, admin, member, group } = opened));

async function say(user: SimulatedUser, text: string, replyTo?: number): Promise<string> {
  await user.send(text, { in: group, ...(replyTo ? { replyTo } : {}) });
  return (await group.waitForMessage()).text ?? "";
}

/**
 * /refunds from an admin: its refunds section (the first reply), once the ledger section that
 * follows it has arrived too.
 */
async function listing() {
  await admin.send("/refunds", { in: group });
  const refunds = await group.waitForMessage(/^(Refunds owed|No refunds owed)/);
  await group.waitForMessage(/^Stars ledger/);
  return refunds;
}

/** A charge for no order we know (a staging database sharing the token, say). */
async function orphan(chargeId: string, amount: number, currency: string) {
  const result = await h.shop.payments.confirmPayment({
    orderId: "QQQQQQQQ",
    userId: 7_300_000_001,
    telegramChargeId: chargeId,
    amount,
    currency,
  });
  expect(result).toMatchObject({ status: "refund-pending", reason: "unknown-order" });
}

const payment = (chargeId: string) =>
  h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } });

describe("/refunds", () => {
  it("is refused to a member who is not an admin, and says so when nothing is owed", async () => {
    expect(await say(member, "/refunds")).toBe("Only this group's administrators can do that.");
    expect((await listing()).text).toBe("No refunds owed: every charge is delivered or refunded.");
  });

  /** The refund call queued for "refused-charge", the one Telegram refuses. */
  const refusedRefund = () =>
    h.db.outboxMessage.findUniqueOrThrow({ where: { dedupeKey: "refund:refused-charge" } });

  it("lists refunds owed with their state, retries a refused Stars refund and marks one refunded with a note", async () => {
    await orphan("refused-charge", 40, "XTR");
    await orphan("usd-charge", 900, "USD");
    await orphan("waiting-charge", 15, "XTR");
    // Telegram refused the first one's refund call: the relay dead-lettered it.
    await h.db.outboxMessage.update({
      where: { dedupeKey: "refund:refused-charge" },
      data: { status: "DEAD", attempts: 1, lastError: "400: Bad Request: CHARGE_ID_INVALID" },
    });

    const listing3 = await listing();
    expect(listing3.text?.split("\n")).toEqual([
      "Refunds owed: 3",
      "1. 40 ⭐ · no order · 0 min · refused by Telegram: 400: Bad Request: CHARGE_ID_INVALID",
      "2. 9.00 USD · no order · 0 min · to refund by hand",
      "3. 15 ⭐ · no order · 0 min · waiting for Telegram",
    ]);
    const shown = listing3;
    expect(shown.reply_markup?.inline_keyboard.map((row) => row.map((b) => b.text))).toEqual([
      ["↻ Retry 1", "✓ Refunded 1"],
      ["✓ Refunded 2"],
    ]);

    const refused = await member.press("↻ Retry 1", { in: group, messageId: shown.message_id });
    expect((await refused.answered()).text).toBe("Only this group's administrators can do that.");
    expect((await refusedRefund()).status).toBe("DEAD");

    // A plain admin (no "Add new admins" right) is refused, and the refund stays as it was.
    const plain = await admin.press("↻ Retry 1", { in: group, messageId: shown.message_id });
    expect(await plain.answered()).toMatchObject({
      text: 'Refunds need an owner, or an admin with the "Add new admins" right. Nothing was changed.',
      showAlert: true,
    });
    expect((await refusedRefund()).status).toBe("DEAD");
    const plainMark = await admin.press("✓ Refunded 2", { in: group, messageId: shown.message_id });
    expect((await plainMark.answered()).text).toMatch(/^Refunds need an owner/);

    const retried = await owner.press("↻ Retry 1", { in: group, messageId: shown.message_id });
    expect((await retried.answered()).text).toBe("The refund is sent to Telegram again.");
    expect(await refusedRefund()).toMatchObject({
      status: "PENDING",
      attempts: 0,
      lastError: null,
    });
    const again = await owner.press("↻ Retry 1", { in: group, messageId: shown.message_id });
    expect((await again.answered()).text).toBe("This refund is already on its way to Telegram.");

    // Mark by hand: the bot asks for a note, and the owner's reply records it.
    await owner.press("✓ Refunded 2", { in: group, messageId: shown.message_id });
    const prompt = await group.waitForMessage(/Reply to this message with a note/);
    expect(prompt.text).toContain("/refunded usd-charge note");
    expect(await say(member, "refunded at the bank", prompt.message_id)).toBe(
      "Only this group's administrators can do that.",
    );
    expect(await say(admin, "refunded at the bank", prompt.message_id)).toMatch(
      /^Refunds need an owner/,
    );
    expect((await payment("usd-charge")).status).toBe("REFUND_PENDING");
    expect(await say(owner, "refunded at the bank", prompt.message_id)).toBe(
      "Marked as refunded by hand: usd-charge.",
    );
    const marked = await payment("usd-charge");
    expect(marked).toMatchObject({ status: "REFUNDED", refundNote: "refunded at the bank" });
    expect(marked.refundedBy).toMatch(/^op:/);
    expect(marked.refundedBy).not.toContain(String(owner.id));
    expect(marked.refundedAt).not.toBeNull();

    expect((await listing()).text?.split("\n")).toEqual([
      "Refunds owed: 2",
      "1. 40 ⭐ · no order · 0 min · waiting for Telegram",
      "2. 15 ⭐ · no order · 0 min · waiting for Telegram",
    ]);
  });

  it("/refunded CHARGE_ID note marks one refunded, once; bad input changes nothing", async () => {
    expect(await say(owner, "/refunded")).toBe("Usage: /refunded CHARGE_ID [note]");
    expect(await say(owner, "/refunded no-such-charge")).toBe("There is no such payment.");
    expect(await say(owner, `/refunded waiting-charge ${"x".repeat(501)}`)).toBe(
      "The note is too long: 500 characters at most. Nothing was changed.",
    );
    expect(await say(admin, "/refunded waiting-charge via Telegram support")).toMatch(
      /^Refunds need an owner/,
    );
    expect((await payment("waiting-charge")).status).toBe("REFUND_PENDING");
    expect(await say(owner, "/refunded waiting-charge via Telegram support")).toBe(
      "Marked as refunded by hand: waiting-charge.",
    );
    expect(await payment("waiting-charge")).toMatchObject({
      status: "REFUNDED",
      refundNote: "via Telegram support",
    });
    expect(await say(owner, "/refunded waiting-charge")).toBe("This payment was refunded already.");
  });
});
