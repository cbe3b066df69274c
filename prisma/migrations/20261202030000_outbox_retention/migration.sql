-- Indexes for the report's day-bounded counts (/report, the daily report): each count reads one
-- day's rows, not the shop's whole history.
CREATE INDEX "orders_created_at_idx" ON "orders"("created_at");
CREATE INDEX "orders_status_updated_at_idx" ON "orders"("status", "updated_at");
CREATE INDEX "payments_status_created_at_idx" ON "payments"("status", "created_at");
CREATE INDEX "payments_status_refunded_at_idx" ON "payments"("status", "refunded_at");

-- The prune-outbox job deletes SENT messages by age: a range scan on this index, whatever the
-- table's size.
CREATE INDEX "outbox_messages_sent_at_idx" ON "outbox_messages"("sent_at") WHERE "status" = 'SENT';

-- Dead letters are kept until someone deals with them, and are few: the report and the backlog
-- metric count them through this index instead of scanning every message ever sent.
CREATE INDEX "outbox_messages_dead_idx" ON "outbox_messages"("id") WHERE "status" = 'DEAD';
