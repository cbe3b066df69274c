-- An outbox `notify` row now holds what happened: a template named after the event, with its ids
-- and facts. It holds no words, no language and no buttons. The worker renders each row when it
-- sends it, in the recipient's language at that moment, with the buttons the event calls for. A
-- paid order's items and shipping are read from the order.
--
-- PENDING rows queued before are migrated here, not drained. Their stored language and buttons
-- are dropped, and so are the paid alerts' pre-rendered items. The masked tails of a paid alert's
-- codes are kept as `codeTails`.
UPDATE "outbox_messages" m
   SET "payload" = (m."payload" - 'locale' - 'buttons')
         || jsonb_build_object('params', (coalesce(m."payload" -> 'params', '{}'::jsonb) - 'itemsEn' - 'itemsZh')
              || CASE WHEN t."tails" IS NULL THEN '{}'::jsonb
                      ELSE jsonb_build_object('codeTails', t."tails") END)
  FROM (SELECT "id", substring("payload" -> 'params' ->> 'itemsEn' from '🔑 [0-9]+: ([^\n]*)$') AS "tails"
          FROM "outbox_messages") t
 WHERE t."id" = m."id" AND m."status" = 'PENDING' AND m."method" = 'notify';
