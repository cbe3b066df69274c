import type { CoreDeps } from "../deps.ts";
import { optionsFor, type ShippingOption } from "./options.ts";
import { createRevealPhone } from "./phone-reveal.ts";
import { createSetProductKind } from "./product-kind.ts";

export type ShippingService = ReturnType<typeof createShippingService>;

/** Physical goods: the shop's shipping options, and the operators' "Show phone". */
export function createShippingService(deps: CoreDeps) {
  return {
    /** Every configured option (SHIPPING_OPTIONS), in order. */
    options: deps.config.shippingOptions as readonly ShippingOption[],
    /** The options that ship to a country: a shipping_query's answer (none: refused). */
    optionsFor: (countryCode: string): ShippingOption[] =>
      optionsFor(deps.config.shippingOptions, countryCode),
    /** The buyer's full contact details for an operator, recorded in order_phone_reveals. */
    revealPhone: createRevealPhone(deps),
    /** An operator's /kind: physical (provider's currency) or digital (Stars), repriced if needed. */
    setProductKind: createSetProductKind(deps),
  };
}
