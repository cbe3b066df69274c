import type { CallbackQueryContext, ChatTypeContext, CommandContext, Context } from "grammy";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Logger } from "@orderbot/platform";
import type { ShopTime } from "../format/time.ts";
import type { Locale } from "../format/translate.ts";

/**
 * What every handler gets: grammY's context, translations (`ctx.t`) in `ctx.locale`, and a logger
 * whose every line carries the update id (and nothing personal). Services are not on the context:
 * each feature receives the ones it uses when it is built (features/*.ts), so what a feature can
 * touch is visible in its signature.
 */
export type BotContext = Context &
  I18nFlavor & {
    logger: Logger;
    locale: Locale;
    /** The shop's clock and named time zone (SHOP_TIME_ZONE), for the times messages show. */
    shopTime: ShopTime;
  };

/** A handler's context in a private chat, as grammY narrows it: `from` and `chat` are there. */
export type PrivateContext = ChatTypeContext<BotContext, "private">;

/** A button pressed in a private chat: `callbackQuery.data` is there. */
export type PrivateButtonContext = CallbackQueryContext<PrivateContext>;

/** A command sent in a private chat: `match` is the text after it. */
export type PrivateCommandContext = CommandContext<PrivateContext>;
