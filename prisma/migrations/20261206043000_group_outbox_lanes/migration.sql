-- Money before chatter in the operator group: support alerts queue in a later lane, so a flood of
-- questions never holds back a paid-order or refund alert (core/src/outbox/messages.ts).
ALTER TABLE "outbox_messages" ADD COLUMN "lane" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_lane" CHECK ("lane" IN (0, 1));
CREATE INDEX "outbox_messages_pending_lane_idx" ON "outbox_messages"("lane", "next_attempt_at") WHERE "status" = 'PENDING';

-- A question is open until an operator answers it: the cap on a customer's open questions counts
-- these (core/src/customers/open-requests.ts).
ALTER TABLE "support_requests" ADD COLUMN "answered_at" TIMESTAMP(3);
