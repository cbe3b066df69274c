import type { I18n } from "@grammyjs/i18n";
import { Bot, type Composer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Database } from "@orderbot/db";
import type { Logger } from "@orderbot/platform";
import { askShopFeature } from "../features/ask-shop.ts";
import { cancelFeature } from "../features/cancel.ts";
import { cartFeature } from "../features/cart.ts";
import { shippingFeature } from "../features/shipping.ts";
import { catalogFeature } from "../features/catalog.ts";
import { groupLifecycleFeature } from "../features/group-lifecycle.ts";
import type { FeatureDeps } from "../features/deps.ts";
import { languageFeature } from "../features/language.ts";
import { myOrdersFeature } from "../features/my-orders.ts";
import { operatorFeature } from "../features/operator/index.ts";
import { orderFeature } from "../features/order.ts";
import { paySupportFeature } from "../features/pay-support.ts";
import { paymentsFeature } from "../features/payments.ts";
import { productFeature } from "../features/product.ts";
import { promoFeature } from "../features/promo.ts";
import { refundedPaymentFeature } from "../features/refunded-payment.ts";
import { searchFeature } from "../features/search.ts";
import { startFeature } from "../features/start.ts";
import { unhandledFeature } from "../features/unhandled.ts";
import { UTC_SHOP_TIME } from "../format/time.ts";
import { boundApiCalls, IN_FLIGHT_MARGIN_MS } from "./api-calls.ts";
import type { BotContext } from "./context.ts";
import { negotiateLocale } from "./i18n.ts";
import { answerEveryCallbackQuery } from "./middleware/callback-answers.ts";
import { pacedGroupReplies } from "./group-replies.ts";
import { handleFeatureError } from "./middleware/error-boundary.ts";
import { updateLogger } from "./middleware/update-logger.ts";

export interface CreateBotDeps extends FeatureDeps {
  token: string;
  /** Another Bot API server (a local one, or the test kit); Telegram's when undefined. */
  apiRoot: string | undefined;
  /** Every Bot API call settles within this, retries included (TELEGRAM_CALL_TIMEOUT_MS). */
  callTimeoutMs: number;
  /** Skips getMe at start when known (tests); otherwise `bot.init()` fetches it. */
  botInfo?: UserFromGetMe;
  logger: Logger;
  /** The translations (createI18n), shared with the update pipeline's answers to limited users. */
  i18n: I18n<BotContext>;
  /** Where group replies are booked (bot/group-replies.ts), and GROUP_RATE_WINDOW_MS. */
  groupReplies: { db: Database; windowMs: number; perWindow?: number };
}

/** Every feature, in the order an update meets them; `unhandled` takes whatever none of them did. */
function features(deps: FeatureDeps): Composer<BotContext>[] {
  const { shop } = deps;
  return [
    startFeature({ orders: shop.orders, orderMessages: deps.orderMessages }),
    // Before any feature that reads plain text: a reply to "write your question" is one.
    askShopFeature({ support: shop.support }),
    // Before search too: a reply to "send your promo code" is a code, not a search.
    promoFeature({
      promotions: shop.promotions,
      cart: shop.cart,
      maxUnitsPerLine: deps.maxUnitsPerLine,
    }),
    languageFeature(deps.languages),
    ...shoppingFeatures(deps),
    groupLifecycleFeature({ groups: shop.groups, ownerIds: deps.operators.ownerIds }),
    paySupportFeature({ support: shop.support, ...deps.shopInfo }),
    operatorFeature({
      shop,
      // A promo code's fixed amount is in Stars unless it names a currency.
      currency: "XTR",
      shippingOptions: deps.shippingOptions,
      providerCurrency: deps.payments.provider?.currency ?? null,
      reports: deps.reports,
      replyPrompts: deps.replyPrompts,
      ...deps.operators,
    }),
    // Last but one: plain text that names products is a search; anything else goes on.
    searchFeature({ catalog: shop.catalog, pageSize: deps.catalogPageSize }),
    unhandledFeature(),
  ];
}

/** Browsing, the cart, orders and their payment, in the order an update meets them. */
function shoppingFeatures(deps: FeatureDeps): Composer<BotContext>[] {
  const { shop } = deps;
  return [
    catalogFeature({ catalog: shop.catalog, cart: shop.cart, pageSize: deps.catalogPageSize }),
    productFeature({
      catalog: shop.catalog,
      cart: shop.cart,
      maxUnitsPerLine: deps.maxUnitsPerLine,
    }),
    cartFeature({
      catalog: shop.catalog,
      cart: shop.cart,
      maxUnitsPerLine: deps.maxUnitsPerLine,
      orderMessages: deps.orderMessages,
    }),
    orderFeature({
      catalog: shop.catalog,
      orders: shop.orders,
      maxUnitsPerLine: deps.maxUnitsPerLine,
      orderMessages: deps.orderMessages,
    }),
    myOrdersFeature({
      orders: shop.orders,
      orderMessages: deps.orderMessages,
      delivery: shop.delivery,
    }),
    cancelFeature(shop.orders),
    paymentsFeature({
      orders: shop.orders,
      payments: shop.payments,
      outbox: shop.outbox,
      orderMessages: deps.orderMessages,
      invoice: deps.payments,
    }),
    shippingFeature({ options: deps.shippingOptions }),
    refundedPaymentFeature({ payments: shop.payments }),
  ];
}

/**
 * The grammY bot: per-update logger, translations, an answer for every button, then the features
 * inside one error boundary. It does not receive updates by itself: the webhook server and the
 * poller hand them to `bot.handleUpdate` through the update pipeline, which has already applied
 * the per-user rate limit (updates/rate-limit.ts), before any database or lock work.
 */
export function createBot(deps: CreateBotDeps): Bot<BotContext> {
  const bot = new Bot<BotContext>(deps.token, {
    ...(deps.botInfo ? { botInfo: deps.botInfo } : {}),
    client: {
      ...(deps.apiRoot ? { apiRoot: deps.apiRoot } : {}),
      timeoutSeconds: Math.ceil(deps.callTimeoutMs / 1000),
    },
  });
  boundApiCalls(bot.api, deps.callTimeoutMs);
  // Outside the deadline: a group reply whose call failed goes to the outbox instead of failing the update.
  bot.api.config.use(
    pacedGroupReplies({
      ...deps.groupReplies,
      claimMs: deps.callTimeoutMs + IN_FLIGHT_MARGIN_MS,
      logger: deps.logger,
    }),
  );

  bot.use(updateLogger(deps.logger));
  const shopTime = { zone: deps.shopTimeZone ?? UTC_SHOP_TIME.zone, now: UTC_SHOP_TIME.now };
  bot.use((ctx, next) => {
    ctx.shopTime = shopTime;
    return next();
  });
  bot.use(negotiateLocale(deps.languages));
  bot.use(deps.i18n);
  bot.use(answerEveryCallbackQuery());
  bot.errorBoundary(handleFeatureError, ...features(deps));
  return bot;
}
