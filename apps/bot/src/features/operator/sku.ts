import type { CatalogService } from "@orderbot/core/catalog";
import type { BotContext } from "../../bot/context.ts";
import { respond } from "./guard.ts";

/**
 * What an operator typed as a SKU, resolved the forgiving way: in any case ("cup-celadon" is
 * CUP-CELADON), or else the nearest SKU within a couple of typos, offered as a suggestion only
 * (never applied: a stock or price change must name its product exactly).
 */
export type SkuMatch = { sku: string } | { sku: null; suggestion: string | null };

export async function resolveSku(
  catalog: Pick<CatalogService, "all">,
  typed: string,
): Promise<SkuMatch> {
  const wanted = typed.toUpperCase();
  const skus = (await catalog.all()).map((p) => p.sku);
  const exact =
    skus.find((sku) => sku === typed) ?? skus.find((sku) => sku.toUpperCase() === wanted);
  if (exact) return { sku: exact };
  const allowed = Math.max(1, Math.min(3, Math.floor(wanted.length / 4)));
  let best: { sku: string; distance: number } | null = null;
  for (const sku of skus) {
    const distance = editDistance(wanted, sku.toUpperCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { sku, distance };
  }
  return { sku: null, suggestion: best?.sku ?? null };
}

/**
 * The SKU an operator's command names, in any case; else it replies with the nearest one (or that
 * there is none) and gives null, so the command stops there.
 */
export async function knownSku(
  ctx: BotContext,
  catalog: Pick<CatalogService, "all">,
  typed: string,
): Promise<string | null> {
  const match = await resolveSku(catalog, typed);
  if (match.sku !== null) return match.sku;
  await respond(
    ctx,
    match.suggestion
      ? ctx.t("op-unknown-sku-suggest", { sku: typed, suggestion: match.suggestion })
      : ctx.t("op-unknown-sku", { sku: typed }),
  );
  return null;
}

/** Levenshtein distance (insert, delete, replace), two rows at a time: SKUs are short. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}
