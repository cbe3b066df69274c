// Writes a checked plan. A new product comes with its opening stock as an IMPORT ledger row; an
// existing one changes through conditional updates on the version the plan read, as an operator's
// edits do (its price through setPrice), so a product changed meanwhile is reported, not overwritten.
import { runTransaction } from "@orderbot/db";
import type { CoreDeps } from "../deps.ts";
import type { Actor } from "../rights/may-do.ts";
import { violatedUniqueIndex } from "../database/db-errors.ts";
import { createSetPrice } from "../stock/set-price.ts";
import type { PlannedPhoto } from "./photo.ts";
import type { PlannedRow } from "./plan.ts";

/** The ledger's batch id of opening stock: one row per product, ever. */
export const CATALOG_BATCH_ID = "catalog-import";

type Create = Extract<PlannedRow, { action: "create" }>;
type Change = Extract<PlannedRow, { action: "change" }>;

/** "ok", or "conflict": another writer got there first (the product changed, or was created). */
export type Applied = "ok" | "conflict";

export function createApplyRow(deps: CoreDeps) {
  const setPrice = createSetPrice(deps);

  async function change(planned: Change, actor: Actor): Promise<Applied> {
    const { row, categoryId, product } = planned;
    const { photo, source } = uploaded(planned.photo);
    // Titles, category and photo: one statement, only on the version the plan read.
    const { count } = await deps.db.product.updateMany({
      where: { id: product.id, version: product.version },
      data: { titleEn: row.titleEn, titleZh: row.titleZh, categoryId, photo, photoSource: source },
    });
    if (count === 0) return "conflict";
    if (!planned.fields.includes("price")) return "ok";
    const priced = await setPrice({
      sku: row.sku,
      priceMinor: row.priceMinor,
      actor,
      expectedVersion: product.version,
    });
    return priced.status === "ok" ? "ok" : "conflict";
  }

  return (planned: Create | Change, actor: Actor): Promise<Applied> =>
    planned.action === "create"
      ? create(deps, planned, `op:${deps.mask(actor.id)}`)
      : change(planned, actor);
}

/** The product and its opening stock's ledger row, in one transaction. */
async function create(deps: CoreDeps, planned: Create, actor: string): Promise<Applied> {
  const { row, categoryId } = planned;
  const { photo, source } = uploaded(planned.photo);
  try {
    await runTransaction(
      deps.db,
      async (tx) => {
        const product = await tx.product.create({
          data: {
            sku: row.sku,
            titleEn: row.titleEn,
            titleZh: row.titleZh,
            priceMinor: row.priceMinor,
            currency: row.currency,
            kind: row.kind,
            stock: row.stock,
            categoryId,
            photo,
            photoSource: source,
          },
        });
        // No stock, no ledger row: the ledger holds moves only (a CHECK refuses a zero one).
        if (row.stock === 0) return;
        await tx.stockMovement.create({
          data: {
            productId: product.id,
            batchId: CATALOG_BATCH_ID,
            delta: row.stock,
            reason: "IMPORT",
            actor,
          },
        });
      },
      { timeoutMs: deps.config.transactionTimeoutMs, maxWaitMs: deps.config.transactionMaxWaitMs },
    );
    return "ok";
  } catch (error) {
    if (violatedUniqueIndex(error) !== undefined) return "conflict";
    throw error;
  }
}

/** The photo once its upload (if any) has run: the service uploads before anything is written. */
function uploaded(planned: PlannedPhoto): { photo: string | null; source: string | null } {
  if ("upload" in planned) throw new Error("catalog import: a photo was written before its upload");
  return planned;
}
