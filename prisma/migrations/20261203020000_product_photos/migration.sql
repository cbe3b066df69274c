-- AlterTable
ALTER TABLE "products" ADD COLUMN "photo" TEXT;

-- A product's photo is what Telegram's sendPhoto takes: an HTTP(S) URL Telegram downloads (at most
-- 2048 characters, no whitespace), or a file_id Telegram issued (its base64url alphabet). The
-- application checks the same (packages/core/src/catalog/photos.ts); this keeps any other writer
-- from storing text that would make every card with this product fail to send.
ALTER TABLE "products" ADD CONSTRAINT "products_photo_check" CHECK (
    "photo" IS NULL
    OR ("photo" ~ '^https?://[^[:space:]/?#]+[^[:space:]]*$' AND char_length("photo") <= 2048)
    OR "photo" ~ '^[A-Za-z0-9_-]{20,255}$'
);
