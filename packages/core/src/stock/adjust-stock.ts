import { runTransaction, type ProductModel } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { violatedUniqueIndex } from "../database/db-errors.ts";
import { parseWith, skuSchema, telegramId } from "../validation.ts";
import { productView, type ProductView } from "../views.ts";
import { refusalOf, type Actor, type Forbidden } from "../rights/may-do.ts";

export type AdjustStockResult =
  /**
   * `delta` is what the stock moved by (0: already at the level asked for; no ledger row).
   * `replayed`: this request id was applied before; nothing changed now, `delta` is the first time's.
   */
  | { status: "ok"; product: ProductView; delta: number; replayed?: boolean }
  /** "remove" with fewer units than that available. */
  | { status: "insufficient"; available: number }
  /**
   * The product is no longer at `expectedVersion`, or "set" lost to concurrent changes several
   * times in a row: nothing changed; `product` is as it is now.
   */
  | { status: "conflict"; product: ProductView }
  | NotFound
  | Invalid
  | Forbidden;

/** What a stock change does: add or remove `units`, or set the stock to `units`. */
export const STOCK_OPS = ["add", "remove", "set"] as const;
export type StockOp = (typeof STOCK_OPS)[number];

export interface StockChange {
  op: StockOp;
  /** 1..1,000,000 (0 only to set). */
  units: number;
  /** The product version the caller saw: a product changed since is refused, not changed. */
  expectedVersion?: number | undefined;
}

export const MAX_STOCK_UNITS = 1_000_000;

const changeSchema = z
  .object({
    op: z.enum(STOCK_OPS),
    units: z.number().int().min(0).max(MAX_STOCK_UNITS),
    expectedVersion: z.number().int().min(0).optional(),
  })
  .refine(({ op, units }) => op === "set" || units > 0, {
    path: ["units"],
    message: "positive",
  });

const inputSchema = z.object({
  sku: skuSchema,
  change: changeSchema,
  actor: telegramId,
  /** The command's identity (chat and message): a retry of it applies nothing twice. */
  requestId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/)
    .optional(),
});
const SET_ATTEMPTS = 3;

/**
 * An operator's stock change. Every change is one conditional, versioned UPDATE plus an ADJUST
 * ledger row in the same transaction, so `stock = sum(ledger)` keeps holding: "remove" only where
 * `stock >= units`; "set" only where the version is still the one read (the delta was computed
 * from it), retried a few times against concurrent orders; with `expectedVersion`, any change only
 * at that version, never retried. No lock is needed.
 */
export function createAdjustStock(deps: CoreDeps) {
  return (
    sku: string,
    change: StockChange,
    actor: Actor,
    options: { requestId?: string } = {},
  ): Promise<AdjustStockResult> => adjustStock(deps, sku, change, actor, options);
}

type Input = z.output<typeof inputSchema>;
type Change = Input["change"];

async function adjustStock(
  deps: CoreDeps,
  sku: string,
  change: StockChange,
  actor: Actor,
  options: { requestId?: string },
): Promise<AdjustStockResult> {
  const refused = refusalOf("stock", actor);
  if (refused) return refused;
  const parsed = parseWith(inputSchema, { sku, change, actor: actor.id, ...options });
  if (!parsed.ok) return invalid(parsed.problems);
  const result = await adjust(deps, parsed.value);
  deps.metrics.operations.inc({ op: "adjust_stock", outcome: result.status });
  if (result.status === "ok")
    deps.logger.info(
      { operator: deps.mask(parsed.value.actor), sku, delta: result.delta },
      "stock adjusted",
    );
  return result;
}

/** What this request id did before (its ledger row carries the id as batch id), if anything. */
async function replay(
  deps: CoreDeps,
  productId: number,
  requestId: string | undefined,
): Promise<AdjustStockResult | null> {
  if (requestId === undefined) return null;
  const row = await deps.db.stockMovement.findUnique({
    where: { batchId_productId: { batchId: requestId, productId } },
  });
  if (!row) return null;
  const product = await deps.db.product.findUniqueOrThrow({ where: { id: productId } });
  return { status: "ok", product: productView(product), delta: row.delta, replayed: true };
}

/**
 * Nothing to change ("=N" with the stock at N): a request with an id is still recorded, as a zero
 * row, so that its re-delivery replays this answer instead of setting the stock again later.
 */
async function unchanged(
  deps: CoreDeps,
  product: ProductModel,
  actor: string,
  requestId: string | undefined,
): Promise<AdjustStockResult> {
  const result = { status: "ok", product: productView(product), delta: 0 } as const;
  if (requestId === undefined) return result;
  try {
    await deps.db.stockMovement.create({
      data: { productId: product.id, delta: 0, reason: "ADJUST", actor, batchId: requestId },
    });
    return result;
  } catch (error) {
    return replayOnDuplicate(deps, error, product.id, requestId); // a concurrent run recorded it first
  }
}

/** A concurrent run of the same request wrote its row first (unique batch id): its answer; else rethrows. */
async function replayOnDuplicate(
  deps: CoreDeps,
  error: unknown,
  productId: number,
  requestId: string | undefined,
): Promise<AdjustStockResult> {
  const earlier =
    violatedUniqueIndex(error) === undefined ? null : await replay(deps, productId, requestId);
  if (earlier) return earlier;
  throw error;
}

async function adjust(deps: CoreDeps, input: Input): Promise<AdjustStockResult> {
  const { sku, change, requestId } = input;
  const who = `op:${deps.mask(input.actor)}`;
  // With an expected version the caller decided on what it saw: a moved product is its to re-read.
  const attempts = change.expectedVersion === undefined ? SET_ATTEMPTS : 1;
  let product: ProductModel | null = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    product = await deps.db.product.findUnique({ where: { sku } });
    if (!product) return NOT_FOUND;
    // Telegram re-delivers a command whose first run failed after the change committed (its
    // reply hit an error, say): the change must not be made twice.
    const earlier = await replay(deps, product.id, requestId);
    if (earlier) return earlier;
    if (change.expectedVersion !== undefined && product.version !== change.expectedVersion) break;
    const delta = deltaOf(change, product.stock);
    if (delta === 0) return unchanged(deps, product, who, requestId);
    const updated = await applyChange(deps, product, change, delta, who, requestId).catch(
      (error: unknown) => replayOnDuplicate(deps, error, product!.id, requestId),
    );
    if (updated && "status" in updated) return updated;
    if (updated) return { status: "ok", product: productView(updated), delta };
    deps.metrics.stockConflicts.inc({ op: "adjust_stock" });
    const short = change.op === "remove" ? await shortfall(deps, product.id, change.units) : null;
    if (short) return short;
  }
  return conflict(deps, product!.id);
}

const deltaOf = (change: Change, stock: number): number =>
  change.op === "add"
    ? change.units
    : change.op === "remove"
      ? -change.units
      : change.units - stock;

/** "remove" refused for want of units, if that is why its update matched no row. */
async function shortfall(
  deps: CoreDeps,
  productId: number,
  units: number,
): Promise<AdjustStockResult | null> {
  const current = await deps.db.product.findUnique({
    where: { id: productId },
    select: { stock: true },
  });
  const available = current?.stock ?? 0;
  return available < units ? { status: "insufficient", available } : null;
}

async function conflict(deps: CoreDeps, productId: number): Promise<AdjustStockResult> {
  const product = await deps.db.product.findUnique({ where: { id: productId } });
  return product ? { status: "conflict", product: productView(product) } : NOT_FOUND;
}

/** The conditional update and its ADJUST ledger row; null when the condition no longer holds. */
function applyChange(
  deps: CoreDeps,
  product: ProductModel,
  change: Change,
  delta: number,
  who: string,
  requestId: string | undefined,
): Promise<ProductModel | null> {
  return runTransaction(
    deps.db,
    async (tx) => {
      const pinned = change.op === "set" || change.expectedVersion !== undefined;
      const where = {
        id: product.id,
        ...(pinned ? { version: product.version } : {}),
        ...(change.op === "remove" ? { stock: { gte: change.units } } : {}),
      };
      const rows = await tx.product.updateManyAndReturn({
        where,
        data: { stock: { increment: delta }, version: { increment: 1 } },
      });
      if (rows.length === 0) return null;
      // The batch id is unique per product: a concurrent run of the same request fails here.
      await tx.stockMovement.create({
        data: {
          productId: product.id,
          delta,
          reason: "ADJUST",
          actor: who,
          batchId: requestId ?? null,
        },
      });
      return rows[0]!;
    },
    { timeoutMs: deps.config.transactionTimeoutMs, maxWaitMs: deps.config.transactionMaxWaitMs },
  );
}
