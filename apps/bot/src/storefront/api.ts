// The storefront's API: the second way into the shop, beside the chat, for a Telegram Mini App.
// Served under one prefix by every bot replica's Fastify; it keeps no session (each request
// carries its initData), so any replica answers any request. It calls core's commands, never the
// chat's features (lint holds that).
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { Shop } from "@orderbot/core";
import { cartRoutes } from "./cart-routes.ts";
import { catalogRoutes } from "./catalog-routes.ts";
import type { InvoiceLinkDeps } from "./invoice-link.ts";
import { orderRoutes } from "./order-routes.ts";
import { securityHeaders } from "./security-headers.ts";
import { authenticate, type ShopperDeps } from "./shopper.ts";

export const STOREFRONT_API_PREFIX = "/app/api";

export interface StorefrontDeps {
  shop: Shop;
  auth: Omit<ShopperDeps, "now">;
  invoices: Omit<InvoiceLinkDeps, "now">;
}

/**
 * Registered with `{ prefix: STOREFRONT_API_PREFIX }`.
 *
 * @example
 * app.register(storefrontApi(deps), { prefix: STOREFRONT_API_PREFIX });
 */
export function storefrontApi(deps: StorefrontDeps): FastifyPluginAsync {
  const now = () => deps.shop.deps.clock.now();
  return async (app: FastifyInstance) => {
    await securityHeaders(app);
    app.addHook("onRequest", authenticate({ ...deps.auth, now }));
    // A customer's cart and orders: never kept by a cache between them and the browser.
    app.addHook("onSend", async (_request, reply) => {
      void reply.header("cache-control", "no-store");
    });
    catalogRoutes(app, deps.shop.catalog);
    cartRoutes(app, deps.shop.cart);
    orderRoutes(app, deps.shop.orders, { ...deps.invoices, now });
  };
}
