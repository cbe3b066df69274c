import type { Tx } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, type Busy, type Invalid, type Unavailable } from "../results.ts";
import { lockedTransaction } from "../database/locked-transaction.ts";
import { parseWith, skuSchema, telegramId } from "../validation.ts";

export interface ImportStockBatchInput {
  /** The operator's id for this delivery (a file name, a message id): applied at most once. */
  batchId: string;
  /** Units received per sku; each sku once. */
  lines: { sku: string; quantity: number }[];
  actor: bigint | number | string;
}

export type ImportStockBatchResult =
  /** Applied now, or already applied earlier (`replayed`: nothing changed this time). */
  { status: "ok"; replayed: boolean; lines: number; units: number } | Busy | Unavailable | Invalid;

const inputSchema = z.object({
  batchId: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._:-]+$/, "letters, digits and . _ : - only"),
  lines: z
    .array(z.object({ sku: skuSchema, quantity: z.number().int().min(1).max(1_000_000) }))
    .min(1)
    .max(1_000)
    .superRefine((lines, ctx) => {
      const seen = new Set<string>();
      lines.forEach((line, index) => {
        if (seen.has(line.sku))
          ctx.addIssue({
            code: "custom",
            path: [index, "sku"],
            message: `${line.sku} appears twice`,
          });
        seen.add(line.sku);
      });
    }),
  actor: telegramId,
});

/**
 * The batch id as the ledger's `batch_id`: prefixed, so that an operator's batch name never collides
 * with the other users of that column (the seed's "seed", adjustStock's request ids).
 */
export const ledgerBatchId = (batchId: string): string => `import:${batchId}`;

/**
 * Applies an operator's stock delivery once per batch id. The `stock-batch` lock (no wait; refused
 * when Redis is down) keeps two instances from working on one batch at once; what makes it "once"
 * is the database: the stock_batches row (primary key = batch id) is inserted first, ON CONFLICT
 * DO NOTHING, and every ledger row carries the batch id (unique per batch and product).
 */
export function createImportStockBatch(deps: CoreDeps) {
  return async function importStockBatch(
    raw: ImportStockBatchInput,
  ): Promise<ImportStockBatchResult> {
    const parsed = parseWith(inputSchema, raw);
    if (!parsed.ok) return invalid(parsed.problems);
    const input = parsed.value;
    const products = await deps.db.product.findMany({
      where: { sku: { in: input.lines.map((l) => l.sku) } },
      select: { id: true, sku: true },
    });
    const idBySku = new Map(products.map((p) => [p.sku, p.id]));
    const unknown = input.lines.flatMap((line, index) =>
      idBySku.has(line.sku)
        ? []
        : [{ field: `lines.${index}.sku`, rule: "unknown" as const, bound: line.sku }],
    );
    if (unknown.length > 0) return invalid(unknown);

    const lines = input.lines
      .map((l) => ({ productId: idBySku.get(l.sku)!, quantity: l.quantity }))
      .sort((a, b) => a.productId - b.productId);
    const units = lines.reduce((sum, l) => sum + l.quantity, 0);
    const actor = `op:${deps.mask(input.actor)}`;
    const result: ImportStockBatchResult = await lockedTransaction(
      deps,
      { kind: "stock-batch", id: input.batchId },
      async (tx): Promise<ImportStockBatchResult> => {
        if (!(await claimStockBatch(tx, input.batchId, actor, lines.length))) {
          const applied = await appliedStockBatch(tx, input.batchId);
          return { status: "ok", replayed: true, ...applied };
        }
        await addBatchStock(tx, input.batchId, actor, lines);
        return { status: "ok", replayed: false, lines: lines.length, units };
      },
    );
    deps.metrics.operations.inc({
      op: "import_stock_batch",
      outcome: result.status === "ok" && result.replayed ? "replayed" : result.status,
    });
    if (result.status === "ok" && !result.replayed)
      deps.logger.info(
        { operator: deps.mask(input.actor), batch: input.batchId, units },
        "stock batch imported",
      );
    return result;
  };
}

/**
 * Claims a batch id in the caller's transaction: the stock_batches row is inserted first, ON
 * CONFLICT DO NOTHING. False: the batch was applied before, and nothing may change now. Shared
 * with the digital pool's loading (delivery/load-codes.ts), which is the same batch.
 */
export async function claimStockBatch(
  tx: Tx,
  batchId: string,
  actor: string,
  lines: number,
): Promise<boolean> {
  const { count } = await tx.stockBatch.createMany({
    data: [{ id: batchId, actor, lines }],
    skipDuplicates: true,
  });
  return count === 1;
}

/** What an earlier application of this batch moved: its ledger rows and their units. */
export async function appliedStockBatch(
  tx: Tx,
  batchId: string,
): Promise<{ lines: number; units: number }> {
  const applied = await tx.stockMovement.aggregate({
    where: { batchId: ledgerBatchId(batchId) },
    _sum: { delta: true },
    _count: true,
  });
  return { lines: applied._count, units: applied._sum.delta ?? 0 };
}

/**
 * The stock of a claimed batch: each product up by its units, with one IMPORT ledger row per
 * product carrying the batch id. `lines` sorted by product id (the lock order).
 */
export async function addBatchStock(
  tx: Tx,
  batchId: string,
  actor: string,
  lines: { productId: number; quantity: number }[],
): Promise<void> {
  for (const line of lines) {
    await tx.product.update({
      where: { id: line.productId },
      data: { stock: { increment: line.quantity }, version: { increment: 1 } },
    });
  }
  await tx.stockMovement.createMany({
    data: lines.map((l) => ({
      productId: l.productId,
      batchId: ledgerBatchId(batchId),
      delta: l.quantity,
      reason: "IMPORT" as const,
      actor,
    })),
  });
}
