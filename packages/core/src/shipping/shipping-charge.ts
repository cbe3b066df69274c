// The amount a physical order is paid with: the goods (orders.total_minor, fixed at the
// reservation) plus the price of the shipping option the buyer chose in Telegram's payment form,
// taken from the shop's configuration, never from the figure the client sent.
import type { Tx } from "@orderbot/db";
import { shipsTo, type ShippingOption } from "./options.ts";
import type { ShippingAddress } from "./order-info.ts";

/** Why a payment's shipping does not add up. */
export type ShippingRefusal =
  /** A physical order paid without a shipping option, or a digital one with one. */
  | "shipping-missing"
  | "shipping-unknown-option"
  /** The option chosen does not ship to the address given. */
  | "shipping-not-to-address";

export type ShippingCharge =
  | { ok: true; optionId: string | null; shippingMinor: number; payableMinor: number }
  | { ok: false; reason: ShippingRefusal };

export interface ShippingChoice {
  physical: boolean;
  goodsMinor: number;
  shippingOptionId?: string | undefined;
  address?: Pick<ShippingAddress, "country_code"> | undefined;
}

/**
 * What the payment must come to. A digital order: the goods alone, no option. A physical one: an
 * option the shop has that ships to the address, and the goods plus its price.
 */
export function shippingCharge(
  options: readonly ShippingOption[],
  choice: ShippingChoice,
): ShippingCharge {
  if (!choice.physical) {
    return choice.shippingOptionId === undefined
      ? { ok: true, optionId: null, shippingMinor: 0, payableMinor: choice.goodsMinor }
      : { ok: false, reason: "shipping-missing" };
  }
  if (choice.shippingOptionId === undefined) return { ok: false, reason: "shipping-missing" };
  const option = options.find((o) => o.id === choice.shippingOptionId);
  if (!option) return { ok: false, reason: "shipping-unknown-option" };
  if (!choice.address || !shipsTo(option, choice.address.country_code))
    return { ok: false, reason: "shipping-not-to-address" };
  return {
    ok: true,
    optionId: option.id,
    shippingMinor: option.price,
    payableMinor: choice.goodsMinor + option.price,
  };
}

/**
 * Whether any line of the order was reserved as a physical product (then it is shipped, and paid
 * with shipping): the kind kept on the line, never the product's today (an operator's /kind).
 */
export async function isPhysicalOrder(tx: Tx, orderId: number): Promise<boolean> {
  const line = await tx.orderItem.findFirst({
    where: { orderId, kind: "PHYSICAL" },
    select: { id: true },
  });
  return line !== null;
}
