import type { Context } from "grammy";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Logger } from "@orderbot/platform";

/**
 * What every handler gets: grammY's context, translations (`ctx.t`), and a logger whose every
 * line carries the update id. Services are not on the context: each feature receives the ones it
 * uses when it is built (see features/*.ts), so what a feature can touch is visible in its signature.
 */
export type BotContext = Context &
  I18nFlavor & {
    logger: Logger;
  };
