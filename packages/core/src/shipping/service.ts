import type { CoreDeps } from "../deps.ts";
import { optionsFor, type ShippingOption } from "./options.ts";
import {
  createRevealPhone,
  type RevealPhoneInput,
  type RevealPhoneResult,
} from "./phone-reveal.ts";
import {
  createSetProductKind,
  type SetProductKindInput,
  type SetProductKindResult,
} from "./product-kind.ts";

/** Physical goods: the shop's shipping options, and the operators' "Show phone". */
export interface ShippingService {
  /** Every configured option (SHIPPING_OPTIONS), in order. */
  readonly options: readonly ShippingOption[];
  /** The options that ship to a country: a shipping_query's answer (none: refused). */
  optionsFor(countryCode: string): ShippingOption[];
  /** The buyer's full contact details for an operator, recorded in order_phone_reveals. */
  revealPhone(input: RevealPhoneInput): Promise<RevealPhoneResult>;
  /** An operator's /kind: physical (provider's currency) or digital (Stars), repriced if needed. */
  setProductKind(input: SetProductKindInput): Promise<SetProductKindResult>;
}

export function createShippingService(deps: CoreDeps): ShippingService {
  return {
    options: deps.config.shippingOptions,
    optionsFor: (country) => optionsFor(deps.config.shippingOptions, country),
    revealPhone: createRevealPhone(deps),
    setProductKind: createSetProductKind(deps),
  };
}
