-- CreateTable
CREATE TABLE "support_requests" (
    "id" SERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "chat_id" BIGINT NOT NULL,
    "topic" VARCHAR(32) NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "support_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "support_requests_user_id_idx" ON "support_requests"("user_id");


-- What Prisma's schema language cannot express: a request's text fits one Telegram message
-- (4096 characters, with room for the header the operators' alert adds).
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_text_length" CHECK (char_length("text") <= 3500);
