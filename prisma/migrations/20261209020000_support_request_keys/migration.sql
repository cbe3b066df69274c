-- A support request is named by the way in that opened it (`request_key`, at most 128 characters:
-- the bot gives "ask:<chat>:<message>"), so that asking again for the same thing finds the first;
-- core keeps no Telegram message id.
ALTER TABLE "support_requests" ADD COLUMN "request_key" VARCHAR(128);
CREATE UNIQUE INDEX "support_requests_request_key_key" ON "support_requests"("request_key");

UPDATE "support_requests"
   SET "request_key" = 'ask:' || "chat_id" || ':' || "source_message_id"
 WHERE "source_message_id" IS NOT NULL;

-- Expand: the previous release still writes and reads source_message_id (unique per chat). Until a
-- later release contracts (drops this trigger, its function, the column and its unique index;
-- CONTRIBUTING.md, "Adding a migration"), an insert fills whichever of the two its writer left out,
-- so a press handled by either release finds a request the other opened.
CREATE FUNCTION "support_request_keys_in_step"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."request_key" IS NULL AND NEW."source_message_id" IS NOT NULL THEN
    NEW."request_key" := 'ask:' || NEW."chat_id" || ':' || NEW."source_message_id";
  ELSIF NEW."source_message_id" IS NULL
        AND NEW."request_key" = 'ask:' || NEW."chat_id" || ':' || substring(NEW."request_key" FROM '[0-9]{1,9}$') THEN
    NEW."source_message_id" := substring(NEW."request_key" FROM '[0-9]{1,9}$')::integer;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "support_request_keys_in_step"
  BEFORE INSERT ON "support_requests"
  FOR EACH ROW EXECUTE FUNCTION "support_request_keys_in_step"();
