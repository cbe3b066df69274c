-- The epoch of the copies Redis keeps of this database's rows (a customer's language). Their keys
-- carry it with the database's oid, so a new database sharing a Redis with an old one never reads
-- the old one's copies. A new database gets a new random epoch; a restore in place gets one by
-- `UPDATE "cache_epoch" SET "epoch" = gen_random_uuid()` (docs/operations.md).
CREATE TABLE "cache_epoch" (
    "singleton" BOOLEAN NOT NULL DEFAULT true,
    "epoch" UUID NOT NULL DEFAULT gen_random_uuid(),

    CONSTRAINT "cache_epoch_pkey" PRIMARY KEY ("singleton"),
    -- One row: the epoch of the whole database.
    CONSTRAINT "cache_epoch_singleton_check" CHECK ("singleton")
);

INSERT INTO "cache_epoch" DEFAULT VALUES;
