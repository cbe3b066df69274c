-- Telegram's Star transaction list is read as growing only at its end, oldest first: the date of
-- the last transaction read lets the next page be checked against it. A page whose dates go
-- backwards means the list changed behind the position: it is not read past, and operators are
-- alerted (finding kind ledger-out-of-order).
ALTER TABLE "star_ledger_positions" ADD COLUMN "last_date" TIMESTAMP(3);

UPDATE "star_ledger_positions" p
   SET "last_date" = (SELECT max(t."occurred_at") FROM "star_transactions" t WHERE t."bot_id" = p."bot_id");

ALTER TABLE "star_ledger_findings" DROP CONSTRAINT "star_ledger_findings_kind";
ALTER TABLE "star_ledger_findings" ADD CONSTRAINT "star_ledger_findings_kind"
    CHECK ("kind" IN ('charge-missing', 'payment-unknown-to-telegram', 'refund-only-in-telegram',
                      'refund-only-in-shop', 'amount-mismatch', 'ledger-out-of-order'));
