import { runTransaction } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { checkInvoiceAmount, type InvoiceAmountRefusal } from "../payments/invoice-limits.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { parseWith, skuSchema, telegramId } from "../validation.ts";
import { productView, type ProductView } from "../views.ts";
import { writePriceIfUnchanged } from "./versioned-update.ts";
import { refusalOf, type Actor, type Forbidden } from "../rights/may-do.ts";

export type SetPriceResult =
  | { status: "ok"; product: ProductView; previousMinor: number }
  /** The product changed since `expectedVersion` (another operator, or an order): read it again. */
  | { status: "conflict"; product: ProductView }
  | NotFound
  | Invalid
  /** One unit at this price could not be invoiced (or the currency cannot be): nothing changed. */
  | InvoiceAmountRefusal
  | Forbidden;

export interface SetPriceInput {
  sku: string;
  /** New price in minor units of the product's currency. */
  priceMinor: number;
  /** Needs the rights table's right for `price`. */
  actor: Actor;
  /** The product version the operator saw (strict); omitted, only a concurrent price change conflicts. */
  expectedVersion?: number;
}

const inputSchema = z.object({
  sku: skuSchema,
  priceMinor: z.number().int().min(1).max(1_000_000_000),
  actor: telegramId,
  expectedVersion: z.number().int().min(0).optional(),
});

/**
 * An operator's `/price SKU AMOUNT`: a conditional update that bumps the version, and a price_changes
 * ledger row in one transaction. Orders already placed keep the price they were placed at; an
 * order being placed at the old price at this moment fails its conditional decrement (it checks
 * the price) and is priced again.
 */
export function createSetPrice(deps: CoreDeps) {
  return async function setPrice(raw: SetPriceInput): Promise<SetPriceResult> {
    const refused = refusalOf("price", raw.actor);
    if (refused) return refused;
    const parsed = parseWith(inputSchema, { ...raw, actor: raw.actor.id });
    if (!parsed.ok) return invalid(parsed.problems);
    const { sku, priceMinor, actor, expectedVersion } = parsed.value;
    const product = await deps.db.product.findUnique({ where: { sku } });
    if (!product) return NOT_FOUND;
    // A price no invoice can carry would only fail at Pay, after the stock was reserved.
    const payable = checkInvoiceAmount(priceMinor, product.currency);
    if (payable.status !== "ok") return payable;
    if (expectedVersion !== undefined && product.version !== expectedVersion)
      return conflict(product.id);
    if (product.priceMinor === priceMinor)
      return { status: "ok", product: productView(product), previousMinor: priceMinor };
    const updated = await runTransaction(
      deps.db,
      async (tx) => {
        // Conditional on the price read (and the version the operator saw, if given): a concurrent
        // price change wins and this one reports a conflict. Orders bump the version too, so
        // without an expected version the price alone decides.
        const row = await writePriceIfUnchanged(tx, {
          productId: product.id,
          seenPriceMinor: product.priceMinor,
          ...(expectedVersion === undefined ? {} : { expectedVersion }),
          priceMinor,
        });
        if (!row) return null;
        await tx.priceChange.create({
          data: {
            productId: product.id,
            oldPriceMinor: product.priceMinor,
            newPriceMinor: priceMinor,
            currency: product.currency,
            actor: `op:${deps.mask(actor)}`,
          },
        });
        return row;
      },
      { timeoutMs: deps.config.transactionTimeoutMs, maxWaitMs: deps.config.transactionMaxWaitMs },
    );
    const result: SetPriceResult = updated
      ? { status: "ok", product: productView(updated), previousMinor: product.priceMinor }
      : await conflict(product.id);
    deps.metrics.operations.inc({ op: "set_price", outcome: result.status });
    if (result.status === "conflict") deps.metrics.stockConflicts.inc({ op: "set_price" });
    if (result.status === "ok")
      deps.logger.info({ operator: deps.mask(actor), sku, priceMinor }, "price changed");
    return result;
  };

  async function conflict(productId: number): Promise<SetPriceResult> {
    return {
      status: "conflict",
      product: productView(await deps.db.product.findUniqueOrThrow({ where: { id: productId } })),
    };
  }
}
