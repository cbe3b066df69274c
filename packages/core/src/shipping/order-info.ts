// What the buyer typed into Telegram's payment form (OrderInfo): stored with a physical order,
// shown to operators masked. Name, phone, e-mail and address are personal data: never in logs,
// metrics or lock keys, and shown in full only through the recorded reveal (phone-reveal.ts).
import { z } from "zod";

export const shippingAddressSchema = z.object({
  country_code: z.string().regex(/^[A-Za-z]{2}$/),
  state: z.string().max(256).default(""),
  city: z.string().max(256),
  street_line1: z.string().max(256),
  street_line2: z.string().max(256).default(""),
  post_code: z.string().max(64),
});

export const orderInfoSchema = z.object({
  name: z.string().max(256).optional(),
  phone_number: z.string().max(64).optional(),
  email: z.string().max(256).optional(),
  shipping_address: shippingAddressSchema.optional(),
});

export type ShippingAddress = z.output<typeof shippingAddressSchema>;
export type OrderInfo = z.output<typeof orderInfoSchema>;

/** A stored `orders.order_info`, read back: anything else (none, a bad row) is null. */
export function readOrderInfo(value: unknown): OrderInfo | null {
  const parsed = orderInfoSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** "Street 1, Street 2, 10115 Berlin, BE, DE": one line for an operator's message. */
export function addressLine(address: ShippingAddress): string {
  return [
    address.street_line1,
    address.street_line2,
    [address.post_code, address.city].filter(Boolean).join(" "),
    address.state,
    address.country_code.toUpperCase(),
  ]
    .filter((part) => part.trim() !== "")
    .join(", ");
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const firstGrapheme = (text: string): string => [...graphemes.segment(text)][0]?.segment ?? "";

/** "A••• L•••": each word's first letter, enough to tell two buyers apart, not to name one. */
export function maskName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words.length === 0 ? "•••" : words.map((word) => `${firstGrapheme(word)}•••`).join(" ");
}

/** "a•••@e•••.com": the first letters of the mailbox and the domain, and its last label. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${firstGrapheme(email)}•••@${firstGrapheme(domain)}•••${tld}`;
}

/** "•••, Berlin, DE": the city and country, which shipping needs; no street or post code. */
export function maskAddress(address: ShippingAddress): string {
  return ["•••", address.city, address.country_code.toUpperCase()]
    .filter((part) => part.trim() !== "")
    .join(", ");
}

/**
 * "+49 ••• ••• 67": the country prefix (or first two characters) and the last two digits, enough
 * for an operator to tell two buyers apart, not to call one.
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  if (digits.length < 6) return "•••";
  const head = phone.trim().startsWith("+") ? `+${digits.slice(0, 2)}` : digits.slice(0, 2);
  return `${head} ••• ••• ${digits.slice(-2)}`;
}
