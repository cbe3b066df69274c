import type { Tx } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { lockedTransaction } from "../database/locked-transaction.ts";
import {
  invalid,
  NOT_FOUND,
  type Busy,
  type Invalid,
  type NotFound,
  type Unavailable,
} from "../results.ts";
import { addBatchStock, appliedStockBatch, claimStockBatch } from "../stock/import-batch.ts";
import { parseWith, skuSchema, telegramId } from "../validation.ts";
import { parseCodeLines, type CodeLines } from "./code-lines.ts";

export interface LoadCodesInput {
  sku: string;
  /** The codes, one a line, as the operator sent them. */
  text: string;
  /** "csv": a .csv file, whose lines' first fields are the codes. Default: one code a line. */
  format?: "lines" | "csv";
  /** What makes a re-delivered command add nothing: the command's chat and message. */
  batchId: string;
  actor: bigint | number | string;
}

export type LoadCodesResult =
  /** `added` new items (and as many units of stock); `known` were in the pool already. */
  | { status: "ok"; replayed: boolean; sku: string; added: number; known: number; repeated: number }
  /** Nothing loaded: a line too long, too many codes, or none. */
  | { status: "refused"; lines: Exclude<CodeLines, { ok: true }> }
  /** Only a DIGITAL product has a pool. */
  | { status: "not-digital"; sku: string }
  | NotFound
  | Busy
  | Unavailable
  | Invalid;

const inputSchema = z.object({
  sku: skuSchema,
  text: z.string(),
  batchId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._:-]+$/),
  actor: telegramId,
});

/**
 * `/codes SKU` with a list or a file: the codes join the product's pool and its stock goes up by
 * the number of new ones, as one stock batch (stock/import-batch.ts): the batch row is claimed
 * first under the `stock-batch` lock, so a re-delivered command adds nothing, and the ledger gets
 * one IMPORT row of +N, keeping products.stock equal to the ledger's sum. A code already in the
 * pool is skipped by the unique key on (product, secret): loading a list twice adds it once.
 */
export function createLoadCodes(deps: CoreDeps) {
  return (raw: LoadCodesInput): Promise<LoadCodesResult> => loadCodes(deps, raw);
}

type Input = z.output<typeof inputSchema>;

async function loadCodes(deps: CoreDeps, raw: LoadCodesInput): Promise<LoadCodesResult> {
  const parsed = parseWith(inputSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const input = parsed.value;
  const lines = parseCodeLines(input.text, raw.format ?? "lines");
  if (!lines.ok) return { status: "refused", lines };
  const product = await deps.db.product.findUnique({
    where: { sku: input.sku },
    select: { id: true, sku: true, kind: true },
  });
  if (!product) return NOT_FOUND;
  if (product.kind !== "DIGITAL") return { status: "not-digital", sku: product.sku };
  const result: LoadCodesResult = await lockedTransaction(
    deps,
    { kind: "stock-batch", id: input.batchId },
    (tx) => loadBatch(tx, `op:${deps.mask(input.actor)}`, input, product, lines),
  );
  deps.metrics.operations.inc({
    op: "load_codes",
    outcome: result.status === "ok" && result.replayed ? "replayed" : result.status,
  });
  if (result.status === "ok" && !result.replayed)
    deps.logger.info(
      { operator: deps.mask(input.actor), batch: input.batchId, added: result.added },
      "digital codes loaded",
    );
  return result;
}

/** The batch claimed, its new codes in the pool and as many units of stock; or its replay. */
async function loadBatch(
  tx: Tx,
  actor: string,
  input: Input,
  product: { id: number; sku: string },
  lines: Extract<CodeLines, { ok: true }>,
): Promise<LoadCodesResult> {
  const total = lines.codes.length;
  if (!(await claimStockBatch(tx, input.batchId, actor, 1))) {
    const applied = await appliedStockBatch(tx, input.batchId);
    return {
      status: "ok",
      replayed: true,
      sku: product.sku,
      added: applied.units,
      known: total - applied.units,
      repeated: lines.repeated,
    };
  }
  const { count } = await tx.digitalItem.createMany({
    data: lines.codes.map((secret) => ({
      productId: product.id,
      secret,
      batchId: input.batchId,
    })),
    skipDuplicates: true,
  });
  if (count > 0)
    await addBatchStock(tx, input.batchId, actor, [{ productId: product.id, quantity: count }]);
  return {
    status: "ok",
    replayed: false,
    sku: product.sku,
    added: count,
    known: total - count,
    repeated: lines.repeated,
  };
}
