// "Show phone": an operator asks for a buyer's full number. Each ask is recorded (who, when) in
// order_phone_reveals before the number is given, so the shop can say who saw it.
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { publicIdSchema } from "../orders/public-id-schema.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import { readOrderInfo } from "./order-info.ts";

export interface RevealPhoneInput {
  orderId: string;
  operatorId: bigint | number | string;
  /** The operator's name as the group shows it. */
  operatorName?: string | undefined;
}

export type RevealPhoneResult =
  | { status: "ok"; phone: string }
  /** The order has no phone number (digital, or the invoice did not ask for one). */
  | { status: "no-phone" }
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
      const phone = readOrderInfo(order.orderInfo)?.phone_number;
      if (!phone) return { status: "no-phone" } as const;
      await tx.orderPhoneReveal.create({
        data: {
          orderId: order.id,
          actor: `op:${deps.mask(input.operatorId)}`,
          actorName: input.operatorName || null,
        },
      });
      return { status: "ok", phone } as const;
    });
  };
}
