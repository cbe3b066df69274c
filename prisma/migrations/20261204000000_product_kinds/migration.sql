-- What a product is decides how it is paid and delivered (docs/architecture.md, Two kinds of
-- goods): DIGITAL goods are sold for Telegram Stars and delivered on payment; PHYSICAL goods are
-- paid through the payment provider and shipped. Every product sold so far was paid in the one
-- configured currency; they stay DIGITAL until an operator says otherwise.
CREATE TYPE "ProductKind" AS ENUM ('DIGITAL', 'PHYSICAL');

ALTER TABLE "products" ADD COLUMN "kind" "ProductKind" NOT NULL DEFAULT 'DIGITAL';
