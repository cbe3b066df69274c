import { Composer, type CommandContext } from "grammy";
import { formatMoney, problemsText } from "@orderbot/conversation";
import { type PromoCodeView, type PromotionService } from "@orderbot/core/promotions";
import type { BotContext } from "../../bot/context.ts";
import { formatDate } from "../../format/order.ts";
import { promoTerms } from "../../format/promo.ts";
import { respond } from "./guard.ts";
import { refusalText, requireRight } from "./rights.ts";
import { parsePromoAdd } from "./promo-command.ts";

export const PROMO_COMMANDS = ["promo"] as const;

type PromoCodesDeps = {
  promotions: Pick<PromotionService, "create" | "list" | "disable">;
  /** The currency a fixed amount is in unless it names one: the shop's payment currency. */
  currency: string;
  /** With admins holding the rights table's right for `promo-add` (rights.ts). */
  ownerIds: readonly bigint[];
};

/**
 * The operator group's promo codes (docs/architecture.md, Promo codes):
 * - `/promo`: every code with its uses left;
 * - `/promo add CODE 10%|5.00 uses=50 [per=1] [min=20.00] [from=YYYY-MM-DD] [until=YYYY-MM-DD]`;
 * - `/promo off CODE`: no new use is taken (uses already taken stay with their orders).
 * Bad input gets the usage line and changes nothing.
 */
export function promoCodesFeature(deps: PromoCodesDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("promo", (ctx) => promoCommand(ctx, deps));
  return feature;
}

async function promoCommand(ctx: CommandContext<BotContext>, deps: PromoCodesDeps) {
  const [action, ...rest] = ctx.match.split(/\s+/).filter(Boolean);
  switch (action?.toLowerCase()) {
    case undefined: {
      const codes = await deps.promotions.list();
      if (codes.length === 0) return respond(ctx, ctx.t("op-promo-list-empty"));
      return respond(
        ctx,
        [ctx.t("op-promo-list-title"), ...codes.map((c) => line(ctx, c, deps.currency))].join("\n"),
      );
    }
    case "add":
      return addCode(ctx, deps, rest);
    case "off": {
      if (!rest[0] || rest.length > 1) return usage(ctx);
      const result = await deps.promotions.disable(rest[0]);
      if (result.status === "not-found")
        return respond(ctx, ctx.t("op-promo-not-found", { code: result.code }));
      return respond(
        ctx,
        ctx.t(result.status === "ok" ? "op-promo-off" : "op-promo-already-off", {
          line: line(ctx, result.code, deps.currency),
        }),
      );
    }
    default:
      return usage(ctx);
  }
}

/** The usage line, after what was wrong when that is known. */
function usage(ctx: BotContext, problem?: string): Promise<void> {
  return respond(
    ctx,
    problem
      ? `${ctx.t("op-promo-invalid", { problem })}\n${ctx.t("op-promo-usage")}`
      : ctx.t("op-promo-usage"),
  );
}

/** `/promo add ...`, for those with the right. */
async function addCode(ctx: BotContext, deps: PromoCodesDeps, words: string[]): Promise<void> {
  const actor = await requireRight(ctx, "promo-add", deps.ownerIds);
  if (!actor) return;
  const parsed = parsePromoAdd(words.join(" "), deps.currency, ctx.shopTime.zone);
  if (!parsed.ok) return usage(ctx, problemsText(ctx.locale, [parsed.problem]));
  const result = await deps.promotions.create({ ...parsed.value, actor });
  switch (result.status) {
    case "ok":
      return respond(
        ctx,
        ctx.t("op-promo-created", { line: line(ctx, result.code, deps.currency) }),
      );
    case "exists":
      return respond(ctx, ctx.t("op-promo-exists", { code: result.code }));
    case "invalid":
      return usage(ctx, problemsText(ctx.locale, result.problems));
    case "forbidden":
      return respond(ctx, refusalText(ctx, result));
  }
}

/** One code: its terms, uses left, and its window and minimum when it has them. */
function line(ctx: BotContext, c: PromoCodeView, shopCurrency: string): string {
  const currency = c.currency ?? shopCurrency;
  const window = [
    c.startsAt
      ? ctx.t("op-promo-from", { day: formatDate(c.startsAt, ctx.locale, ctx.shopTime.zone) })
      : "",
    c.endsAt
      ? ctx.t("op-promo-until", {
          // ends_at is the start of the day after the last one.
          day: formatDate(new Date(c.endsAt.getTime() - 1), ctx.locale, ctx.shopTime.zone),
        })
      : "",
    c.minTotalMinor > 0
      ? ctx.t("op-promo-min", { min: formatMoney(c.minTotalMinor, currency) })
      : "",
  ]
    .filter(Boolean)
    .join(ctx.t("op-promo-separator"));
  return ctx.t("op-promo-line", {
    code: c.code,
    terms: promoTerms(ctx.t, c, currency),
    remaining: c.remainingUses,
    total: c.totalUses,
    per: c.perCustomer,
    details: window === "" ? "" : ctx.t("op-promo-details", { list: window }),
    state: c.active ? "" : ctx.t("op-promo-inactive"),
  });
}
