import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, type Composer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Logger } from "@orderbot/platform";
import { cancelFeature } from "../features/cancel.ts";
import { catalogFeature } from "../features/catalog.ts";
import type { FeatureDeps } from "../features/deps.ts";
import { languageFeature } from "../features/language.ts";
import { myOrdersFeature } from "../features/my-orders.ts";
import { operatorFeature } from "../features/operator/index.ts";
import { orderFeature } from "../features/order.ts";
import { paySupportFeature } from "../features/pay-support.ts";
import { paymentsFeature } from "../features/payments.ts";
import { productFeature } from "../features/product.ts";
import { refundedPaymentFeature } from "../features/refunded-payment.ts";
import { startFeature } from "../features/start.ts";
import { unhandledFeature } from "../features/unhandled.ts";
import type { BotContext } from "./context.ts";
import { createI18n, negotiateLocale } from "./i18n.ts";
import { answerEveryCallbackQuery } from "./middleware/callback-answers.ts";
import { handleFeatureError } from "./middleware/error-boundary.ts";
import { rateLimit, type RateLimitOptions } from "./middleware/rate-limit.ts";
import { updateLogger } from "./middleware/update-logger.ts";

export interface CreateBotDeps extends FeatureDeps {
  token: string;
  /** Another Bot API server (a local one, or the test kit); Telegram's when undefined. */
  apiRoot: string | undefined;
  /** Skips getMe at start when known (tests); otherwise `bot.init()` fetches it. */
  botInfo?: UserFromGetMe;
  logger: Logger;
  rateLimit: RateLimitOptions;
}

/** Every feature, in the order an update meets them; `unhandled` takes whatever none of them did. */
function features(deps: FeatureDeps): Composer<BotContext>[] {
  const { shop } = deps;
  return [
    startFeature(shop.orders),
    languageFeature(deps.languages),
    catalogFeature({ catalog: shop.catalog, pageSize: deps.catalogPageSize }),
    productFeature({ catalog: shop.catalog, maxUnitsPerLine: deps.maxUnitsPerLine }),
    orderFeature({
      catalog: shop.catalog,
      orders: shop.orders,
      lowStock: deps.lowStock,
      maxUnitsPerLine: deps.maxUnitsPerLine,
    }),
    myOrdersFeature(shop.orders),
    cancelFeature(shop.orders),
    paymentsFeature({
      orders: shop.orders,
      payments: shop.payments,
      outbox: shop.outbox,
      invoice: deps.payments,
    }),
    refundedPaymentFeature({ payments: shop.payments }),
    paySupportFeature({ support: shop.support, ...deps.shopInfo }),
    operatorFeature({
      shop,
      lowStock: deps.lowStock,
      reports: deps.reports,
      ...deps.operators,
    }),
    unhandledFeature(),
  ];
}

/**
 * The grammY bot: per-update logger, an answer for every button, translations, the per-user rate
 * limit, then the features inside one error boundary. It does not receive updates by itself:
 * the webhook server and the poller hand them to `bot.handleUpdate` through the update pipeline.
 */
export function createBot(deps: CreateBotDeps): Bot<BotContext> {
  const bot = new Bot<BotContext>(deps.token, {
    ...(deps.botInfo ? { botInfo: deps.botInfo } : {}),
    client: {
      ...(deps.apiRoot ? { apiRoot: deps.apiRoot } : {}),
      // Webhook requests wait for the handler: give a slow Bot API call a bound well under Telegram's 60 s.
      timeoutSeconds: 20,
    },
  });
  // 429s and 5xx from the Bot API are retried (after their retry_after), within a short bound.
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 5 }));

  const i18n = createI18n();
  bot.use(updateLogger(deps.logger));
  bot.use(negotiateLocale(deps.languages));
  bot.use(i18n);
  bot.use(answerEveryCallbackQuery());
  bot.use(rateLimit(deps.rateLimit));
  bot.errorBoundary(handleFeatureError, ...features(deps));
  return bot;
}
