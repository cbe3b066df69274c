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
  /** "-N" with fewer than N units available. */
  | { status: "insufficient"; available: number }
  /** "=N" lost to concurrent changes several times in a row; try again. */
  | { status: "conflict" }
  | NotFound
  | Invalid
  | Forbidden;

/** "+N" adds, "-N" removes (never below zero), "=N" sets. N up to 1,000,000. */
const changeSchema = z
  .string()
  .trim()
  .regex(/^[+\-=]\d{1,7}$/, 'must be "+N", "-N" or "=N"')
  .transform((value) => ({ op: value[0] as "+" | "-" | "=", n: Number(value.slice(1)) }))
  .refine(
    ({ op, n }) => n <= 1_000_000 && (op === "=" || n > 0),
    "N must be 1..1000000 (0 only with =)",
  );

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
 * An operator's `/stock SKU +N|-N|=N`. Every change is one conditional, versioned UPDATE plus an
 * ADJUST ledger row in the same transaction, so `stock = sum(ledger)` keeps holding:
 * "-N" only where `stock >= N`; "=N" only where the version is still the one read (the delta was
 * computed from it), retried a few times against concurrent orders. No lock is needed.
 */
export function createAdjustStock(deps: CoreDeps) {
  return (
    sku: string,
    change: string,
    actor: Actor,
    options: { requestId?: string } = {},
  ): Promise<AdjustStockResult> => adjustStock(deps, sku, change, actor, options);
}

type Input = z.output<typeof inputSchema>;
type Change = Input["change"];

async function adjustStock(
  deps: CoreDeps,
  sku: string,
  change: string,
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
  for (let attempt = 1; attempt <= SET_ATTEMPTS; attempt++) {
    const product = await deps.db.product.findUnique({ where: { sku } });
    if (!product) return NOT_FOUND;
    // Telegram re-delivers a command whose first run failed after the change committed (its
    // reply hit an error, say): the change must not be made twice.
    const earlier = await replay(deps, product.id, requestId);
    if (earlier) return earlier;
    const delta =
      change.op === "+" ? change.n : change.op === "-" ? -change.n : change.n - product.stock;
    if (delta === 0) return unchanged(deps, product, who, requestId);
    const updated = await applyChange(deps, product, change, delta, who, requestId).catch(
      (error: unknown) => replayOnDuplicate(deps, error, product.id, requestId),
    );
    if (updated && "status" in updated) return updated;
    if (updated) return { status: "ok", product: productView(updated), delta };
    deps.metrics.stockConflicts.inc({ op: "adjust_stock" });
    if (change.op === "-") {
      const current = await deps.db.product.findUnique({
        where: { id: product.id },
        select: { stock: true },
      });
      if ((current?.stock ?? 0) < change.n)
        return { status: "insufficient", available: current?.stock ?? 0 };
    }
  }
  return { status: "conflict" };
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
      const where =
        change.op === "="
          ? { id: product.id, version: product.version }
          : change.op === "-"
            ? { id: product.id, stock: { gte: change.n } }
            : { id: product.id };
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
