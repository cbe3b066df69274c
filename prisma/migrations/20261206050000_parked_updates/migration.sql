-- Updates the poller took into its own keeping: each one failed and held back every later update
-- (getUpdates hands out at most 100 from the oldest unconfirmed one), so it is stored here before
-- the offset moves past it, and retried from here. The payload is the update's JSON as text.
CREATE TABLE "parked_updates" (
    "bot_id" BIGINT NOT NULL,
    "update_id" BIGINT NOT NULL,
    "payload" TEXT NOT NULL,
    "parked_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "parked_updates_pkey" PRIMARY KEY ("bot_id", "update_id")
);
