// /refunds ends with the Stars ledger findings nobody has resolved (from the worker's
// reconcile-stars job), each with a button that resolves it: once, recording who and when.
import { describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import type { BotHarness } from "./support/harness.ts";
import { useOperatorGroup } from "./support/operators.ts";

let h: BotHarness, group: SimulatedGroup;
let owner: SimulatedUser, admin: SimulatedUser, member: SimulatedUser;
useOperatorGroup({ bind: "core" }, (opened) => ({ h, owner, admin, member, group } = opened));

describe("/refunds: Stars ledger findings", () => {
  it("says so when there is no open finding, after the refunds", async () => {
    await admin.send("/refunds", { in: group });
    await group.waitForMessage(/^No refunds owed/);
    expect((await group.waitForMessage(/^Stars ledger/)).text).toBe(
      "Stars ledger: no open findings (Telegram's record and the shop's agree as far as checked).",
    );
  });

  it("lists open findings after the refunds and resolves one per button press, once", async () => {
    const missing = await h.db.starLedgerFinding.create({
      data: {
        kind: "charge-missing",
        telegramChargeId: "stxLost",
        userId: 7_300_000_002n,
        telegramAmount: 25,
      },
    });
    await h.db.starLedgerFinding.create({
      data: {
        kind: "amount-mismatch",
        telegramChargeId: "stxDiff",
        telegramAmount: 30,
        shopAmount: 20,
      },
    });
    await h.db.starLedgerFinding.create({
      data: {
        kind: "refund-only-in-shop",
        telegramChargeId: "stxOld",
        resolvedAt: new Date(),
        resolvedBy: "op:someone",
      },
    });

    await admin.send("/refunds", { in: group });
    await group.waitForMessage(/^No refunds owed/);
    const listing = await group.waitForMessage(/^Stars ledger findings/);
    expect(listing.text?.split("\n")).toEqual([
      "Stars ledger findings (Telegram's record and the shop's differ): 2",
      "1. charge the shop never recorded (recorded late for its order, or refunded automatically) · charge stxLost · Telegram 25 ⭐ · shop - · 0 min",
      "2. amounts differ · charge stxDiff · Telegram 30 ⭐ · shop 20 ⭐ · 0 min",
    ]);
    expect(listing.reply_markup?.inline_keyboard.map((row) => row.map((b) => b.text))).toEqual([
      ["✓ Resolved 1", "✓ Resolved 2"],
    ]);

    const refused = await member.press("✓ Resolved 1", {
      in: group,
      messageId: listing.message_id,
    });
    expect((await refused.answered()).text).toBe("Only this group's administrators can do that.");
    expect(
      (await h.db.starLedgerFinding.findUniqueOrThrow({ where: { id: missing.id } })).resolvedAt,
    ).toBeNull();

    // Resolving can hide a missing charge: an admin without "Add new admins" may not.
    const plain = await admin.press("✓ Resolved 1", { in: group, messageId: listing.message_id });
    expect((await plain.answered()).text).toMatch(/^Resolving a ledger finding needs an owner/);
    expect(
      (await h.db.starLedgerFinding.findUniqueOrThrow({ where: { id: missing.id } })).resolvedAt,
    ).toBeNull();

    const resolved = await owner.press("✓ Resolved 1", {
      in: group,
      messageId: listing.message_id,
    });
    expect((await resolved.answered()).text).toBe(
      "Finding resolved: stxLost. Your name and the time are recorded.",
    );
    const row = await h.db.starLedgerFinding.findUniqueOrThrow({ where: { id: missing.id } });
    expect(row.resolvedAt).not.toBeNull();
    expect(row.resolvedBy).toMatch(/^op:/);
    expect(row.resolvedBy).not.toContain(String(owner.id));

    const again = await owner.press("✓ Resolved 1", { in: group, messageId: listing.message_id });
    expect((await again.answered()).text).toBe("This finding was resolved already: stxLost.");
    expect(
      (await h.db.starLedgerFinding.findUniqueOrThrow({ where: { id: missing.id } })).resolvedAt,
    ).toEqual(row.resolvedAt);

    await admin.send("/refunds", { in: group });
    await group.waitForMessage(/^No refunds owed/);
    expect((await group.waitForMessage(/^Stars ledger findings/)).text?.split("\n")).toEqual([
      "Stars ledger findings (Telegram's record and the shop's differ): 1",
      "1. amounts differ · charge stxDiff · Telegram 30 ⭐ · shop 20 ⭐ · 0 min",
    ]);
  });
});
