-- What the app role may not do, on top of init-roles.sh's "rows only": delete a ledger's rows, or
-- write the migration history. Run by the one-off `grants` service as the owner role after every
-- migration (new tables get init-roles.sh's default grants, DELETE included); idempotent.
-- psql variable: app (the app role). tests/ops/database-roles.test.ts runs it for real.

-- The app never deletes these: stock's ledger, money, and who did what to an order or a price.
REVOKE DELETE, TRUNCATE ON
  "stock_movements", "payments", "star_transactions", "star_ledger_findings", "order_timeline",
  "price_changes"
FROM :"app";

-- The bot reads it at start (are the migrations applied?); only the migrate job writes it.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON "_prisma_migrations" FROM :"app";
