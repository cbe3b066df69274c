import type { Database, OrderStatus, Tx } from "@orderbot/db";
import { ORDER_INCLUDE, orderView, type OrderView } from "../views.ts";

export async function findOrderByPublicId(
  db: Database | Tx,
  publicId: string,
): Promise<OrderView | null> {
  const order = await db.order.findUnique({ where: { publicId }, include: ORDER_INCLUDE });
  return order ? orderView(order) : null;
}

/** A customer's order by its public id; null alike when it is missing and when it is another's. */
export async function findOwnOrder(
  db: Database | Tx,
  publicId: string,
  userId: bigint,
): Promise<OrderView | null> {
  const order = await db.order.findFirst({ where: { publicId, userId }, include: ORDER_INCLUDE });
  return order ? orderView(order) : null;
}

export async function listOrders(
  db: Database,
  filter: { userId?: bigint; status?: OrderStatus; limit: number },
): Promise<OrderView[]> {
  const orders = await db.order.findMany({
    where: {
      ...(filter.userId === undefined ? {} : { userId: filter.userId }),
      ...(filter.status ? { status: filter.status } : {}),
    },
    include: ORDER_INCLUDE,
    orderBy: { id: "desc" },
    take: filter.limit,
  });
  return orders.map(orderView);
}
