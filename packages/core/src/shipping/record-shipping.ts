// At confirmation, a physical order keeps what the buyer chose and typed in the payment form: the
// shipping option, its price (the payment is goods + shipping), and order_info.
import type { Tx } from "@orderbot/db";
import type { OrderInfo } from "./order-info.ts";

export async function recordShipping(
  tx: Tx,
  orderId: number,
  shipping: { optionId: string | null; shippingMinor: number },
  orderInfo: OrderInfo | undefined,
): Promise<void> {
  if (shipping.optionId === null && orderInfo === undefined) return;
  await tx.order.update({
    where: { id: orderId },
    data: {
      shippingOptionId: shipping.optionId,
      shippingMinor: shipping.shippingMinor,
      ...(orderInfo ? { orderInfo } : {}),
    },
  });
}
