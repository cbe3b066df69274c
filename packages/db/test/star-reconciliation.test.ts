// The Stars reconciliation's tables refuse what must never be stored: a finding twice, an unknown
// kind, a resolution without its author, a negative position, a direction other than in/out.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@orderbot/testkit";
import { rejection } from "./support/rejection.ts";

const { db } = useTestDatabase();

describe("star_ledger_findings", () => {
  it("records a finding once per kind and charge; another kind of the same charge is another finding", async () => {
    await db.starLedgerFinding.create({ data: { kind: "charge-missing", telegramChargeId: "c1" } });
    expect(
      await rejection(
        db.starLedgerFinding.create({ data: { kind: "charge-missing", telegramChargeId: "c1" } }),
      ),
    ).toContain("P2002");
    await db.starLedgerFinding.create({
      data: { kind: "amount-mismatch", telegramChargeId: "c1" },
    });
    expect(await db.starLedgerFinding.count({ where: { telegramChargeId: "c1" } })).toBe(2);
  });

  it("refuses an unknown kind, and a resolution without who (or who without when)", async () => {
    expect(
      await rejection(
        db.starLedgerFinding.create({ data: { kind: "oops", telegramChargeId: "c2" } }),
      ),
    ).toContain("star_ledger_findings_kind");
    expect(
      await rejection(
        db.starLedgerFinding.create({
          data: { kind: "charge-missing", telegramChargeId: "c3", resolvedAt: new Date() },
        }),
      ),
    ).toContain("star_ledger_findings_resolved_by");
    expect(
      await rejection(
        db.starLedgerFinding.create({
          data: { kind: "charge-missing", telegramChargeId: "c4", resolvedBy: "op:x" },
        }),
      ),
    ).toContain("star_ledger_findings_resolved_by");
  });
});

describe("star_transactions and star_ledger_positions", () => {
  it("stores a payment and its refund under one id, once each; refuses another direction", async () => {
    const row = (direction: string) => ({
      botId: 8_000_000_001n,
      direction,
      transactionId: "stx1",
      partner: "user:invoice_payment",
      userId: 7_000_000_001n,
      amount: 5,
      occurredAt: new Date(),
    });
    await db.starTransaction.createMany({ data: [row("in"), row("out")] });
    expect(await rejection(db.starTransaction.create({ data: row("in") }))).toContain("P2002");
    expect(await rejection(db.starTransaction.create({ data: row("sideways") }))).toContain(
      "star_transactions_direction",
    );
  });

  it("refuses a negative position", async () => {
    expect(
      await rejection(db.starLedgerPosition.create({ data: { botId: 1n, txOffset: -1 } })),
    ).toContain("star_ledger_positions_offset_positive");
  });
});
