-- A customer in the shop, whichever way they came in: when they were last seen (to the hour), a
-- broadcast opt-out, and since when they are unreachable (they blocked the bot). First seen is
-- "created_at". Expand only: the release before this one neither reads nor writes these columns,
-- and its inserts leave them NULL.
ALTER TABLE "customers" ADD COLUMN "last_seen_at" TIMESTAMP(3);
ALTER TABLE "customers" ADD COLUMN "broadcasts_opted_out_at" TIMESTAMP(3);
ALTER TABLE "customers" ADD COLUMN "unreachable_since" TIMESTAMP(3);
