-- The physical floor of bench:orders: the same reservation as the shop's (the order, its item,
-- its RESERVE ledger row, the conditional decrement of the product's stock at COMMIT), as one function
-- called in autocommit: one round trip, one commit, no lock, no Prisma, no check beyond the
-- database's own (CHECK stock >= 0, the unique keys). Created by the benchmark, in a schema of its
-- own, in the throwaway database of the run; never part of the project's migrations.
CREATE SCHEMA bench_floor;

CREATE FUNCTION bench_floor.reserve(
  p_user bigint, p_chat bigint, p_sku text, p_quantity int, p_key text, p_public_id text,
  p_ttl interval
) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  v_product int;
  v_price int;
  v_currency text;
  v_order int;
BEGIN
  SELECT id, price_minor, currency INTO v_product, v_price, v_currency
  FROM public.products WHERE sku = p_sku AND active;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown product %', p_sku USING ERRCODE = 'P0002';
  END IF;
  INSERT INTO public.orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at,
                             idempotency_key, updated_at)
  VALUES (p_public_id, p_user, p_chat, 'RESERVED', v_price * p_quantity, v_currency,
          (now() + p_ttl) AT TIME ZONE 'UTC', p_key, now() AT TIME ZONE 'UTC')
  RETURNING id INTO v_order;
  INSERT INTO public.order_items (order_id, product_id, quantity, unit_price_minor)
  VALUES (v_order, v_product, p_quantity, v_price);
  INSERT INTO public.stock_movements (product_id, order_id, delta, reason, actor)
  VALUES (v_product, v_order, -p_quantity, 'RESERVE', 'user');
  -- The line takes its units when the statement's transaction commits: the schema's deferred
  -- trigger "Order_line_takes_stock" runs the conditional decrement (SQLSTATE OBST1 when short).
  RETURN v_order;
END
$$;
