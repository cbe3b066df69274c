-- AlterTable
ALTER TABLE "products" ADD COLUMN "photo_source" TEXT;

-- Where an imported photo came from (an HTTPS URL or a file's path), beside the file_id Telegram
-- issued for it: the same source imported again is not uploaded again. Expand only: the release
-- before this one neither reads nor writes it.
ALTER TABLE "products" ADD CONSTRAINT "products_photo_source_check" CHECK (
    "photo_source" IS NULL OR char_length("photo_source") BETWEEN 1 AND 2048
);
