// The shop's shipping options (SHIPPING_OPTIONS) and which of them reach an address. Telegram asks
// for them in a shipping_query once the buyer has typed an address into the payment form; the
// answer needs nothing but this configuration, so it is fast and never waits on a lock.
import { z } from "zod";

/** ISO 3166-1 alpha-2, as Telegram sends `shipping_address.country_code`. */
const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "a 2-letter ISO 3166-1 country code, e.g. DE")
  .transform((code) => code.toUpperCase());

export const shippingOptionSchema = z.object({
  /** Telegram's ShippingOption.id, sent back as shipping_option_id. */
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, '_' and '-' only"),
  title: z.string().trim().min(1).max(64),
  /** In minor units of PROVIDER_CURRENCY; 0 for free pickup. */
  price: z.number().int().min(0).max(1_000_000_000),
  /** Where it ships to: a list of country codes, or "*" for everywhere (the default). */
  countries: z.union([z.literal("*"), z.array(countryCode).min(1)]).default("*"),
});

export const shippingOptionsSchema = z
  .array(shippingOptionSchema)
  .max(20)
  .refine(
    (options) => new Set(options.map((o) => o.id)).size === options.length,
    "option ids must be unique",
  );

export type ShippingOption = z.output<typeof shippingOptionSchema>;

/** Whether `option` ships to `country` (case-insensitive). */
export function shipsTo(option: ShippingOption, country: string): boolean {
  const code = country.toUpperCase();
  return option.countries === "*" || option.countries.includes(code);
}

/** The options that ship to `country`, in configuration order (none: the address is refused). */
export function optionsFor(options: readonly ShippingOption[], country: string): ShippingOption[] {
  return options.filter((option) => shipsTo(option, country));
}
