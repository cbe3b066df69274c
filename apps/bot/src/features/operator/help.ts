import { Composer } from "grammy";
import type { BotContext } from "../../bot/context.ts";
import { respond } from "./guard.ts";

/** The commands that open the group's help (with or without @botname: grammY checks the name). */
export const HELP_COMMANDS = ["help", "start"] as const;

/** /help and /start in the operator group: what operators can do here, in their words. */
export function operatorHelpFeature(): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command([...HELP_COMMANDS], (ctx) => respond(ctx, ctx.t("op-help")));
  return feature;
}
