import { createCartService, type CartService } from "./cart/service.ts";
import { createCategoryAdmin, type CategoryAdmin } from "./catalog/categories.ts";
import { createCatalogService, type CatalogService } from "./catalog/service.ts";
import { createCatalogImport, type CatalogImport } from "./catalog-import/service.ts";
import { resolveCoreConfig, type CoreConfigInput } from "./config.ts";
import { buildDeps, type CoreDeps, type CoreDepsInput } from "./deps.ts";
import { createFulfilmentService, type FulfilmentService } from "./fulfilment/service.ts";
import { createProductPhotos, type ProductPhotos } from "./catalog/photos.ts";
import { createProductEdits, type ProductEdits } from "./catalog/edit-product.ts";
import { createGroupService, type GroupService } from "./groups/service.ts";
import { createOrderService, type OrderService } from "./orders/service.ts";
import { createOutboxService, type OutboxService } from "./outbox/service.ts";
import { createPaymentService, type PaymentService } from "./payments/service.ts";
import {
  createStarReconciliation,
  type StarReconciliation,
} from "./payments/reconciliation/service.ts";
import { createStockService, type StockService } from "./stock/service.ts";
import { registerHeldUnpaidGauge } from "./stock/unpaid-holds.ts";
import { createSupportRequests, type SupportRequests } from "./customers/support-requests.ts";
import { createCustomers, type Customers } from "./customers/service.ts";
import { createPromotionService, type PromotionService } from "./promotions/service.ts";
import { createDeliveryService, type DeliveryService } from "./delivery/service.ts";
import { createShippingService, type ShippingService } from "./shipping/service.ts";

export interface Shop {
  catalog: CatalogService;
  /** A catalog from a CSV file, with a dry run (`npm run catalog`, operators' /import). */
  importCatalog: CatalogImport;
  /** Operators managing categories and putting products in them (/category). */
  categories: CategoryAdmin;
  /** Customers' carts, and checkout: a cart turned into one order. */
  cart: CartService;
  /** Operators setting the photo on a product's card. */
  photos: ProductPhotos;
  /** Operators editing a product's titles and whether it is on sale, from the version they saw. */
  products: ProductEdits;
  orders: OrderService;
  /** Operators moving paid orders on (processing, shipped, delivered), and orders' timelines. */
  fulfilment: FulfilmentService;
  payments: PaymentService;
  /** Reconciliation with Telegram's Stars ledger (the worker's reconcile-stars job, /refunds). */
  ledger: StarReconciliation;
  stock: StockService;
  groups: GroupService;
  outbox: OutboxService;
  /** Customers, recorded by whichever way in met them: language, last seen, reachability. */
  customers: Customers;
  /** Customers asking the shop for help (/paysupport), relayed to the operator groups. */
  support: SupportRequests;
  /** Promo codes with limited uses: operators' /promo, and a code applied to a cart. */
  promotions: PromotionService;
  /** Digital goods from a pool: operators' /codes, and the codes an order received. */
  delivery: DeliveryService;
  /** Physical goods: shipping options for a shipping_query, and operators' "Show phone". */
  shipping: ShippingService;
  /** The dependencies the services were built from (tests and benchmarks reach the lockless paths with them). */
  deps: CoreDeps;
}

export type CreateShopOptions = Omit<CoreDepsInput, "config"> & { config: CoreConfigInput };

/**
 * Every domain service, built from explicit dependencies. The bot, the worker, tests and
 * benchmarks all call this.
 *
 * @example
 * const locks = createLockManager({ redis, namespace: "prod:shop", kinds: LOCK_KINDS, hashKey });
 * const shop = createShop({ db, locks, config: { maskKey: hashKey }, logger, registry });
 * const result = await shop.orders.placeOrder({ userId, chatId, items: [{ sku: "TEA", quantity: 1 }], idempotencyKey });
 * if (result.status === "ok") reply(result.order.id);
 */
export function createShop(options: CreateShopOptions): Shop {
  const deps = buildDeps({ ...options, config: resolveCoreConfig(options.config) });
  if (options.registry) registerHeldUnpaidGauge(options.registry, options.db);
  const orders = createOrderService(deps);
  return {
    catalog: createCatalogService(deps),
    importCatalog: createCatalogImport(deps),
    categories: createCategoryAdmin(deps),
    cart: createCartService(deps, orders.placeOrder),
    photos: createProductPhotos(deps),
    products: createProductEdits(deps),
    orders,
    fulfilment: createFulfilmentService(deps),
    payments: createPaymentService(deps),
    ledger: createStarReconciliation(deps),
    stock: createStockService(deps),
    groups: createGroupService(deps),
    outbox: createOutboxService(deps),
    customers: createCustomers(deps),
    support: createSupportRequests(deps),
    promotions: createPromotionService(deps),
    delivery: createDeliveryService(deps),
    shipping: createShippingService(deps),
    deps,
  };
}
