-- Fulfilment after payment: PAID → PROCESSING → SHIPPED → DELIVERED, and an order timeline.
--
-- FULFILLED meant "an operator marked it delivered", which is what DELIVERED means now, so the
-- value is renamed rather than replaced: every existing FULFILLED row (and any query that still
-- names it) reads DELIVERED at once, without rewriting a row and without a window in which an old
-- and a new value coexist. Keeping FULFILLED beside DELIVERED would leave two words for one state.
ALTER TYPE "OrderStatus" RENAME VALUE 'FULFILLED' TO 'DELIVERED';
-- New values cannot be used in the transaction that adds them: nothing below names them.
ALTER TYPE "OrderStatus" ADD VALUE 'PROCESSING' AFTER 'PAID';
ALTER TYPE "OrderStatus" ADD VALUE 'SHIPPED' AFTER 'PROCESSING';

-- Every change of an order's status (`move`), and every refund of an order whose goods went out
-- (`refund`: the status stays, the operator's reason is the note).
CREATE TABLE "order_timeline" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "event" VARCHAR(8) NOT NULL DEFAULT 'move',
    "from_status" "OrderStatus",
    "to_status" "OrderStatus" NOT NULL,
    "actor" VARCHAR(64) NOT NULL,
    "actor_name" VARCHAR(128),
    "note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_timeline_pkey" PRIMARY KEY ("id")
);

ALTER TABLE "order_timeline" ADD CONSTRAINT "order_timeline_order_id_fkey"
    FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "order_timeline_order_id_created_at_idx" ON "order_timeline"("order_id", "created_at");

ALTER TABLE "order_timeline" ADD CONSTRAINT "order_timeline_event_known"
    CHECK ("event" IN ('move', 'refund'));
-- A move changes the status; a refund of a shipped order keeps it, and an operator gives a reason
-- (Telegram's own refunds come without one).
ALTER TABLE "order_timeline" ADD CONSTRAINT "order_timeline_move_changes_status"
    CHECK ("event" <> 'move' OR "from_status" IS DISTINCT FROM "to_status");
ALTER TABLE "order_timeline" ADD CONSTRAINT "order_timeline_refund_has_reason"
    CHECK ("event" <> 'refund' OR ("from_status" = "to_status" AND ("note" IS NOT NULL OR "actor" = 'telegram')));
ALTER TABLE "order_timeline" ADD CONSTRAINT "order_timeline_note_length"
    CHECK ("note" IS NULL OR char_length("note") BETWEEN 1 AND 500);
-- The lifecycle never returns to a status, so each is reached once: two moves to one status (two
-- operators, one pressing twice) cannot both be recorded, whatever the locks did.
CREATE UNIQUE INDEX "order_timeline_one_move_per_status" ON "order_timeline"("order_id", "to_status")
    WHERE "event" = 'move';

-- Orders delivered before the timeline existed get the one entry they are known to have had.
INSERT INTO "order_timeline" ("order_id", "event", "from_status", "to_status", "actor", "created_at")
SELECT "id", 'move', 'PAID', 'DELIVERED', 'migration', "updated_at" FROM "orders"
WHERE "status" = 'DELIVERED';
