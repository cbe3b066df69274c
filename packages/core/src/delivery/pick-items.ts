import type { Tx } from "@orderbot/db";

/** The unused items one order's digital lines will receive, row-locked for this transaction. */
export interface PickedItems {
  /** Every digital line got `quantity` items (or the order has none). */
  ok: boolean;
  /** Item ids per product, in the order they are handed out. */
  items: { productId: number; ids: number[] }[];
  /** The lines that found fewer unused items than their quantity. */
  short: { productId: number; wanted: number; found: number }[];
}

/**
 * Picks, for each line reserved as DIGITAL (the line's kind, not the product's today) with a
 * pool, `quantity` unused items, locked FOR UPDATE SKIP LOCKED: concurrent payments of one
 * product never wait on each other's items and never pick the same one. Nothing is written: the caller assigns them (`assignPickedItems`) once it knows the
 * payment pays for the order, and a short pool leaves nothing to undo. An item another payment
 * holds but then does not take (its transaction rolled back) is skipped here, so a pool with one
 * item left can report short for one payment while another fails: rare, and refunded like any
 * shortage. A DIGITAL product no code was ever loaded for is a service the shop delivers itself,
 * as before pools existed: its lines pick nothing.
 */
export async function pickDigitalItems(tx: Tx, orderId: number): Promise<PickedItems> {
  const lines = await tx.$queryRaw<{ productId: number; quantity: number }[]>`
    SELECT i.product_id AS "productId", i.quantity FROM order_items i
      JOIN products p ON p.id = i.product_id
     WHERE i.order_id = ${orderId} AND i.kind = 'DIGITAL'
       AND EXISTS (SELECT 1 FROM digital_items d WHERE d.product_id = p.id)
     ORDER BY i.product_id`;
  const picked: PickedItems = { ok: true, items: [], short: [] };
  for (const line of lines) {
    const rows = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM digital_items
       WHERE product_id = ${line.productId} AND order_id IS NULL AND revoked_at IS NULL
       ORDER BY id LIMIT ${line.quantity}
       FOR UPDATE SKIP LOCKED`;
    if (rows.length < line.quantity) {
      picked.ok = false;
      picked.short.push({ productId: line.productId, wanted: line.quantity, found: rows.length });
    }
    picked.items.push({ productId: line.productId, ids: rows.map((r) => r.id) });
  }
  return picked;
}

/**
 * Gives the picked items to the order, by a conditional update: only rows still unused and not
 * revoked change. The row locks make every one of them change; a count that differs means
 * another writer bypassed them, and the transaction (the payment with it) is rolled back rather
 * than deliver less than was paid for. The database itself refuses re-assigning an item
 * (the digital_items_guard trigger).
 */
export async function assignPickedItems(
  tx: Tx,
  orderId: number,
  picked: PickedItems,
  now: Date,
): Promise<number> {
  const ids = picked.items.flatMap((line) => line.ids);
  if (ids.length === 0) return 0;
  const assigned = await tx.$executeRaw`
    UPDATE digital_items SET order_id = ${orderId}, assigned_at = ${now}
     WHERE id = ANY(${ids}::int[]) AND order_id IS NULL AND revoked_at IS NULL`;
  if (assigned !== ids.length) throw new DigitalItemsChangedError(orderId, ids.length, assigned);
  return assigned;
}

export class DigitalItemsChangedError extends Error {
  override name = "DigitalItemsChangedError";
  constructor(
    readonly orderId: number,
    readonly wanted: number,
    readonly assigned: number,
  ) {
    super(`order ${orderId}: ${assigned} of ${wanted} locked digital items could be assigned`);
  }
}
