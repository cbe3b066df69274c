import { z } from "zod";
import type { OrderStatus } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { telegramId } from "../validation.ts";
import type { OrderView } from "../views.ts";
import { createCancelOrder } from "./cancel-order.ts";
import { createExpireDue } from "./expire-due.ts";
import { createPlaceOrder } from "./place-order.ts";
import { publicIdSchema } from "./public-id-schema.ts";
import { findOrderByPublicId, findOwnOrder, listOrders } from "./queries.ts";

export type OrderService = ReturnType<typeof createOrderService>;

const limitSchema = z.number().int().min(1).max(100);

export function createOrderService(deps: CoreDeps) {
  const { db } = deps;
  return {
    placeOrder: createPlaceOrder(deps),
    cancelOrder: createCancelOrder(deps),
    expireDue: createExpireDue(deps),
    /** By public id (an operator's /order ID, a button's order); null when unknown. */
    async get(orderId: string): Promise<OrderView | null> {
      const id = publicIdSchema.safeParse(orderId);
      return id.success ? findOrderByPublicId(db, id.data) : null;
    },
    /**
     * A customer's own order (a button, a link, a Mini App's request): null alike for an order that
     * does not exist and for another customer's, so the answer tells nothing about the latter.
     */
    async getOwn(orderId: string, userId: bigint | number | string): Promise<OrderView | null> {
      const id = publicIdSchema.safeParse(orderId);
      const user = telegramId.safeParse(userId);
      return id.success && user.success ? findOwnOrder(db, id.data, user.data) : null;
    },
    /** A user's orders, newest first (/orders). */
    async listForUser(userId: bigint | number | string, limit = 10): Promise<OrderView[]> {
      return listOrders(db, { userId: telegramId.parse(userId), limit: limitSchema.parse(limit) });
    },
    /** Operators' /orders [STATUS], newest first. */
    async list(options: { status?: OrderStatus; limit?: number } = {}): Promise<OrderView[]> {
      return listOrders(db, {
        ...(options.status ? { status: options.status } : {}),
        limit: limitSchema.parse(options.limit ?? 20),
      });
    },
  };
}
