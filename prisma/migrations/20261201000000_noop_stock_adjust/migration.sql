-- An operator's "/stock SKU =N" that finds the stock already at N is recorded too: a zero ADJUST row
-- carrying its request id. Without it, Telegram re-delivering the command (its reply failed) after
-- orders took units would find no trace of it and put those units back on sale.
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_delta_non_zero";
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_delta_non_zero"
    CHECK ("delta" <> 0 OR ("reason" = 'ADJUST' AND "batch_id" IS NOT NULL));
