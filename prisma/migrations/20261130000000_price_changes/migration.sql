-- CreateTable
CREATE TABLE "price_changes" (
    "id" SERIAL NOT NULL,
    "product_id" INTEGER NOT NULL,
    "old_price_minor" INTEGER NOT NULL,
    "new_price_minor" INTEGER NOT NULL,
    "currency" VARCHAR(3) NOT NULL,
    "actor" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "price_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "price_changes_product_id_idx" ON "price_changes"("product_id");

-- AddForeignKey
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- What Prisma's schema language cannot express: a price change records a real, positive price.
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_new_price_positive" CHECK ("new_price_minor" > 0);
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_price_changed" CHECK ("new_price_minor" <> "old_price_minor");
