import { Composer } from "grammy";
import { parseMoney } from "@orderbot/core";
import { formatMoney, problemsText } from "@orderbot/conversation";
import type { CatalogService } from "@orderbot/core/catalog";
import { type SetPriceResult, type StockService } from "@orderbot/core/stock";
import type { BotContext } from "../../bot/context.ts";
import { respond } from "./guard.ts";
import { adminActor, refusalText, requireRight } from "./rights.ts";
import { knownSku } from "./sku.ts";
import { parseStockChange } from "./stock-change.ts";

export interface StockFeatureDeps {
  catalog: CatalogService;
  stock: StockService;
  /** Owners: every right of core's rights table (@orderbot/core/rights). */
  ownerIds: readonly bigint[];
}

/** The words after a command: "/stock TEA +5" → ["TEA", "+5"]. */
function args(ctx: BotContext): string[] {
  return typeof ctx.match === "string" ? ctx.match.split(/\s+/).filter(Boolean) : [];
}

/** /stock SKU +N|-N|=N and /price SKU AMOUNT, for the operator group's admins (/products: products.ts). */
export function stockFeature(deps: StockFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("stock", (ctx) => stockCommand(ctx, deps));
  feature.command("price", (ctx) => priceCommand(ctx, deps));
  return feature;
}

async function stockCommand(ctx: BotContext, deps: StockFeatureDeps): Promise<void> {
  const [typed, typedChange, ...rest] = args(ctx);
  const change = typedChange ? parseStockChange(typedChange) : null;
  if (!typed || !change || rest.length > 0) return respond(ctx, ctx.t("op-stock-usage"));
  const sku = await knownSku(ctx, deps.catalog, typed);
  if (sku === null) return;
  // The command message names the request: Telegram re-delivering it must not restock twice.
  const requestId = ctx.chat && ctx.msg ? `stock:${ctx.chat.id}:${ctx.msg.message_id}` : undefined;
  const result = await deps.stock.adjustStock(sku, change, adminActor(ctx, deps.ownerIds), {
    requestId,
  });
  switch (result.status) {
    case "ok": {
      const after = result.product.stock;
      // A re-delivered command changed nothing now, and the stock has moved since its first run:
      // "before" would be a guess (orders may have taken units meanwhile), so say what it did.
      await respond(
        ctx,
        result.replayed
          ? ctx.t("op-stock-replayed", {
              sku: result.product.sku,
              change: signed(result.delta),
              now: after,
            })
          : ctx.t("op-stock-ok", {
              sku: result.product.sku,
              before: after - result.delta,
              after,
            }),
      );
      break;
    }
    case "insufficient":
      await respond(
        ctx,
        ctx.t("op-stock-short", { sku, requested: change.units, available: result.available }),
      );
      break;
    case "conflict":
    case "not-found":
      await respondNotChanged(ctx, result.status, sku);
      break;
    case "invalid":
      await respond(
        ctx,
        ctx.t("op-invalid", { problems: problemsText(ctx.locale, result.problems) }),
      );
      break;
    case "forbidden":
      await respond(ctx, refusalText(ctx, result));
      break;
  }
}

async function priceCommand(ctx: BotContext, deps: StockFeatureDeps): Promise<void> {
  const [typed, amount, ...rest] = args(ctx);
  if (!typed || !amount || rest.length > 0) return respond(ctx, ctx.t("op-price-usage"));
  const actor = await requireRight(ctx, "price", deps.ownerIds);
  if (!actor) return;
  const sku = await knownSku(ctx, deps.catalog, typed);
  if (sku === null) return;
  const product = await deps.catalog.get({ sku });
  if (!product) return respond(ctx, ctx.t("op-unknown-sku", { sku }));
  const priceMinor = parseMoney(amount, product.currency);
  if (priceMinor === null) return respond(ctx, ctx.t("op-price-usage"));
  const result = await deps.stock.setPrice({ sku, priceMinor, actor });
  if (result.status === "conflict" || result.status === "not-found")
    return respondNotChanged(ctx, result.status, sku);
  await respond(ctx, priceText(ctx, sku, priceMinor, product.currency, result));
}

function priceText(
  ctx: BotContext,
  sku: string,
  priceMinor: number,
  productCurrency: string,
  result: Exclude<SetPriceResult, { status: "conflict" | "not-found" }>,
): string {
  switch (result.status) {
    case "ok":
      return ctx.t("op-price-ok", {
        sku,
        before: formatMoney(result.previousMinor, productCurrency),
        after: formatMoney(priceMinor, productCurrency),
      });
    case "invalid":
      return ctx.t("op-invalid", { problems: problemsText(ctx.locale, result.problems) });
    case "forbidden":
      return refusalText(ctx, result);
    case "amount-out-of-range":
      return ctx.t("op-price-out-of-range", {
        sku,
        price: formatMoney(priceMinor, result.currency),
        min: formatMoney(result.minMinor, result.currency),
        max: formatMoney(result.maxMinor, result.currency),
      });
    case "unsupported-currency":
      return ctx.t("op-price-currency-unsupported", {
        sku,
        currency: result.currency,
        supported: result.supported.join(", "),
      });
  }
}

/** The replies /stock and /price share for a change not made: the product is busy, or no such SKU. */
function respondNotChanged(
  ctx: BotContext,
  status: "conflict" | "not-found",
  sku: string,
): Promise<void> {
  return respond(ctx, status === "conflict" ? ctx.t("op-busy") : ctx.t("op-unknown-sku", { sku }));
}

/** "+3", "-2": a stock change as the operator typed it. */
function signed(delta: number): string {
  return delta > 0 ? `+${delta}` : String(delta);
}
