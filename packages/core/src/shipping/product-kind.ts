// An operator's `/kind SKU physical|digital [PRICE]`: what a product is decides how it is paid.
// Physical goods are priced in the provider's currency, digital goods in Stars, so a change of
// kind that changes the currency needs the new price too; both change together, with a
// price_changes row (orders already placed keep the unit prices they were placed at).
import type { ProductKind } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { issueParams } from "../problems.ts";
import { currencySchema, parseWith, skuSchema, telegramId } from "../validation.ts";
import { refusalOf, type Actor, type Forbidden } from "../rights/may-do.ts";
import { productView, type ProductView } from "../views.ts";

export interface SetProductKindInput {
  sku: string;
  kind: ProductKind;
  /** The kind's currency: XTR for DIGITAL, PROVIDER_CURRENCY for PHYSICAL. */
  currency: string;
  /** Required when the product is priced in another currency. */
  priceMinor?: number | undefined;
  /** Needs the rights table's right for `kind`: a change of kind sets a price. */
  actor: Actor;
  /** The product version the caller saw: a product changed since is refused, not changed. */
  expectedVersion?: number | undefined;
}

export type SetProductKindResult =
  | { status: "ok"; sku: string; kind: ProductKind; currency: string; priceMinor: number }
  /** It is priced in another currency: give its price in `currency`. */
  | { status: "price-required"; sku: string; priceCurrency: string }
  /** The product is no longer at `expectedVersion`: nothing changed; `product` is as it is now. */
  | { status: "conflict"; product: ProductView }
  | NotFound
  | Invalid
  | Forbidden;

const schema = z
  .object({
    sku: skuSchema,
    kind: z.enum(["DIGITAL", "PHYSICAL"]),
    currency: currencySchema,
    priceMinor: z.number().int().min(1).max(2_147_483_647).optional(),
    actor: telegramId,
    expectedVersion: z.number().int().min(0).optional(),
  })
  .refine((input) => (input.kind === "DIGITAL") === (input.currency === "XTR"), {
    ...issueParams("kind-currency"),
    path: ["currency"],
  });

export function createSetProductKind(deps: CoreDeps) {
  return async function setProductKind(raw: SetProductKindInput): Promise<SetProductKindResult> {
    const refused = refusalOf("kind", raw.actor);
    if (refused) return refused;
    const parsed = parseWith(schema, { ...raw, actor: raw.actor.id });
    if (!parsed.ok) return invalid(parsed.problems);
    const input = parsed.value;
    return deps.db.$transaction(async (tx) => {
      const [product] = await tx.$queryRaw<
        { id: number; currency: string; priceMinor: number; version: number }[]
      >`SELECT id, currency, price_minor AS "priceMinor", version
          FROM products WHERE sku = ${input.sku} FOR UPDATE`;
      if (!product) return NOT_FOUND;
      // Locked: the version read is the one written over, so a stale caller is told, never ignored.
      if (input.expectedVersion !== undefined && product.version !== input.expectedVersion)
        return {
          status: "conflict",
          product: productView(await tx.product.findUniqueOrThrow({ where: { id: product.id } })),
        } as const;
      const repriced = product.currency !== input.currency;
      if (repriced && input.priceMinor === undefined)
        return { status: "price-required", sku: input.sku, priceCurrency: product.currency };
      const priceMinor = input.priceMinor ?? product.priceMinor;
      await tx.product.update({
        where: { id: product.id },
        data: {
          kind: input.kind,
          currency: input.currency,
          priceMinor,
          version: { increment: 1 },
        },
      });
      // The ledger holds changes of amount (its CHECK): the same figure in another currency is not one.
      if (priceMinor !== product.priceMinor)
        await tx.priceChange.create({
          data: {
            productId: product.id,
            oldPriceMinor: product.priceMinor,
            newPriceMinor: priceMinor,
            currency: input.currency,
            actor: `op:${deps.mask(input.actor)}`,
          },
        });
      deps.logger.info(
        { operator: deps.mask(input.actor), sku: input.sku, kind: input.kind },
        "product kind changed",
      );
      return {
        status: "ok",
        sku: input.sku,
        kind: input.kind,
        currency: input.currency,
        priceMinor,
      } as const;
    });
  };
}
