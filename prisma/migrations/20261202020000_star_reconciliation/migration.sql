-- Reconciliation with Telegram's own record of the bot's Stars (getStarTransactions).

-- CreateTable
-- What the worker has read of Telegram's list, one row per transaction: a payment ("in") and its
-- refund ("out") share Telegram's id, the charge's telegram_payment_charge_id. Kept so that a
-- payment can be looked up in Telegram's list without reading the list again.
CREATE TABLE "star_transactions" (
    "bot_id" BIGINT NOT NULL,
    "direction" TEXT NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "partner" TEXT NOT NULL,
    "user_id" BIGINT,
    "invoice_payload" TEXT,
    "amount" INTEGER NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "read_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "star_transactions_pkey" PRIMARY KEY ("bot_id","direction","transaction_id")
);

-- CreateTable
-- How far the worker has read Telegram's list, per bot: the list only grows, oldest first, so
-- the number of transactions read is the offset of the next page.
CREATE TABLE "star_ledger_positions" (
    "bot_id" BIGINT NOT NULL,
    "tx_offset" INTEGER NOT NULL DEFAULT 0,
    "read_to_end_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "star_ledger_positions_pkey" PRIMARY KEY ("bot_id")
);

-- CreateTable
-- Differences between Telegram's list and the payments table, for a person to see.
CREATE TABLE "star_ledger_findings" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "telegram_charge_id" TEXT NOT NULL,
    "user_id" BIGINT,
    "telegram_amount" INTEGER,
    "shop_amount" INTEGER,
    "details" JSONB NOT NULL DEFAULT '{}',
    "found_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "alerted_at" TIMESTAMP(3),
    "resolved_at" TIMESTAMP(3),
    "resolved_by" TEXT,
    "resolve_note" TEXT,

    CONSTRAINT "star_ledger_findings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
-- A finding is recorded once, however often (and by however many workers) the lists are compared.
CREATE UNIQUE INDEX "star_ledger_findings_kind_telegram_charge_id_key" ON "star_ledger_findings"("kind", "telegram_charge_id");

-- What Prisma's schema language cannot express.
-- The two directions a Stars transaction can have.
ALTER TABLE "star_transactions" ADD CONSTRAINT "star_transactions_direction"
    CHECK ("direction" IN ('in', 'out'));
ALTER TABLE "star_transactions" ADD CONSTRAINT "star_transactions_amount_positive"
    CHECK ("amount" >= 0);
ALTER TABLE "star_ledger_positions" ADD CONSTRAINT "star_ledger_positions_offset_positive"
    CHECK ("tx_offset" >= 0);
-- The kinds of difference the comparison knows; anything else is a bug.
ALTER TABLE "star_ledger_findings" ADD CONSTRAINT "star_ledger_findings_kind"
    CHECK ("kind" IN ('charge-missing', 'payment-unknown-to-telegram', 'refund-only-in-telegram',
                      'refund-only-in-shop', 'amount-mismatch'));
-- A resolution says who resolved it; an open finding has neither.
ALTER TABLE "star_ledger_findings" ADD CONSTRAINT "star_ledger_findings_resolved_by"
    CHECK (("resolved_at" IS NULL) = ("resolved_by" IS NULL));
ALTER TABLE "star_ledger_findings" ADD CONSTRAINT "star_ledger_findings_note_length"
    CHECK ("resolve_note" IS NULL OR char_length("resolve_note") <= 500);
-- The open findings: /refunds and the metric read them.
CREATE INDEX "star_ledger_findings_open_idx" ON "star_ledger_findings"("id") WHERE "resolved_at" IS NULL;
