import { z } from "zod";
import type { OrderStatus } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import { telegramId } from "../validation.ts";
import type { OrderView } from "../views.ts";
import { createCancelOrder, type CancelOrderResult } from "./cancel-order.ts";
import { createExpireDue, type ExpireDueOptions, type ExpireDueResult } from "./expire-due.ts";
import { createPlaceOrder } from "./place-order.ts";
import type { PlaceOrderInput } from "./place-order-input.ts";
import { publicIdSchema } from "./public-id-schema.ts";
import { findOrderByPublicId, findOwnOrder, listOrders } from "./queries.ts";
import type { PlaceOrderResult } from "./reserve.ts";

export interface OrderService {
  placeOrder(input: PlaceOrderInput): Promise<PlaceOrderResult>;
  cancelOrder(orderId: string, userId: bigint | number | string): Promise<CancelOrderResult>;
  expireDue(now: Date, batchSize?: number, options?: ExpireDueOptions): Promise<ExpireDueResult>;
  /** By public id (an operator's /order ID, a button's order); null when unknown. */
  get(orderId: string): Promise<OrderView | null>;
  /**
   * A customer's own order (a button, a link, a Mini App's request): null alike for an order that
   * does not exist and for another customer's, so the answer tells nothing about the latter.
   */
  getOwn(orderId: string, userId: bigint | number | string): Promise<OrderView | null>;
  /** A user's orders, newest first (/orders). */
  listForUser(userId: bigint | number | string, limit?: number): Promise<OrderView[]>;
  /** Operators' /orders [STATUS], newest first. */
  list(options?: { status?: OrderStatus; limit?: number }): Promise<OrderView[]>;
}

const limitSchema = z.number().int().min(1).max(100);

export function createOrderService(deps: CoreDeps): OrderService {
  const { db } = deps;
  return {
    placeOrder: createPlaceOrder(deps),
    cancelOrder: createCancelOrder(deps),
    expireDue: createExpireDue(deps),
    async get(orderId) {
      const id = publicIdSchema.safeParse(orderId);
      return id.success ? findOrderByPublicId(db, id.data) : null;
    },
    async getOwn(orderId, userId) {
      const id = publicIdSchema.safeParse(orderId);
      const user = telegramId.safeParse(userId);
      return id.success && user.success ? findOwnOrder(db, id.data, user.data) : null;
    },
    async listForUser(userId, limit = 10) {
      return listOrders(db, { userId: telegramId.parse(userId), limit: limitSchema.parse(limit) });
    },
    async list(options = {}) {
      return listOrders(db, {
        ...(options.status ? { status: options.status } : {}),
        limit: limitSchema.parse(options.limit ?? 20),
      });
    },
  };
}
