// "Show contact": an operator asks for a buyer's full name, phone, e-mail and address, which the
// group sees only masked. Each ask is recorded (who, when) in order_phone_reveals before anything
// is given, so the shop can say who saw it.
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import { addressLine, readOrderInfo } from "./order-info.ts";

export interface RevealPhoneInput {
  orderId: string;
  operatorId: bigint | number | string;
  /** The operator's name as the group shows it. */
  operatorName?: string | undefined;
}

/** What the buyer typed into the payment form, in full; null where the invoice did not ask. */
export interface BuyerContact {
  name: string | null;
  phone: string | null;
  email: string | null;
  /** One line: street, post code and city, state, country. */
  address: string | null;
}

export type RevealPhoneResult =
  | { status: "ok"; contact: BuyerContact }
  /** The order has no contact details (digital, or the invoice asked for none). */
  | { status: "no-contact" }
  | NotFound
  | Invalid;

const inputSchema = z.object({
  orderId: publicIdSchema,
  operatorId: telegramId,
  operatorName: z.string().trim().max(128).optional(),
});

export function createRevealPhone(deps: CoreDeps) {
  return async function revealPhone(raw: RevealPhoneInput): Promise<RevealPhoneResult> {
    const parsed = parseWith(inputSchema, raw);
    if (!parsed.ok) return invalid(parsed.problems);
    const input = parsed.value;
    return deps.db.$transaction(async (tx) => {
      const order = await tx.order.findUnique({
        where: { publicId: input.orderId },
        select: { id: true, orderInfo: true },
      });
      if (!order) return NOT_FOUND;
      const info = readOrderInfo(order.orderInfo);
      const contact: BuyerContact = {
        name: info?.name || null,
        phone: info?.phone_number || null,
        email: info?.email || null,
        address: info?.shipping_address ? addressLine(info.shipping_address) : null,
      };
      if (!Object.values(contact).some(Boolean)) return { status: "no-contact" } as const;
      await tx.orderPhoneReveal.create({
        data: {
          orderId: order.id,
          actor: `op:${deps.mask(input.operatorId)}`,
          actorName: input.operatorName || null,
        },
      });
      return { status: "ok", contact } as const;
    });
  };
}
