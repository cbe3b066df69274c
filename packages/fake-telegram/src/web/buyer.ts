// What a person types into a provider invoice's payment form, read from a request body: strings
// only, and an address with Telegram's six fields; anything left out takes the default buyer's.
import type { ShippingAddress } from "@grammyjs/types";
import { FakeTelegramError } from "../errors.ts";
import type { BuyerDetails } from "../shipping-step.ts";

const ADDRESS_FIELDS = [
  "country_code",
  "state",
  "city",
  "street_line1",
  "street_line2",
  "post_code",
] as const;

function text(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new FakeTelegramError(`buyer.${field} must be a string`);
  return value;
}

function readAddress(value: unknown): ShippingAddress | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null)
    throw new FakeTelegramError("buyer.shippingAddress must be an object");
  const fields = value as Record<string, unknown>;
  const address = Object.fromEntries(
    ADDRESS_FIELDS.map((name) => [name, text(fields[name], `shippingAddress.${name}`) ?? ""]),
  ) as unknown as ShippingAddress;
  if (!/^[A-Z]{2}$/.test(address.country_code))
    throw new FakeTelegramError("buyer.shippingAddress.country_code is two capital letters");
  if (address.city === "" || address.street_line1 === "" || address.post_code === "")
    throw new FakeTelegramError("an address needs a city, a street and a post code");
  return address;
}

/** The buyer details in `body.buyer`, or undefined when there are none. */
export function readBuyer(value: unknown): BuyerDetails | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null)
    throw new FakeTelegramError("buyer must be an object");
  const fields = value as Record<string, unknown>;
  const name = text(fields.name, "name");
  const phoneNumber = text(fields.phoneNumber, "phoneNumber");
  const email = text(fields.email, "email");
  const shippingAddress = readAddress(fields.shippingAddress);
  return {
    ...(name ? { name } : {}),
    ...(phoneNumber ? { phoneNumber } : {}),
    ...(email ? { email } : {}),
    ...(shippingAddress ? { shippingAddress } : {}),
  };
}
