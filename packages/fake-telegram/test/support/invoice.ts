import type { SimulatedUser } from "../../src/index.ts";

/** sendInvoice's parameters for a valid one-widget Stars invoice to `user`, with `extra` over them. */
export const starsInvoice = (
  user: SimulatedUser,
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  chat_id: user.chatId,
  title: "Widget",
  description: "One widget",
  payload: "order:1",
  currency: "XTR",
  prices: [{ label: "Widget", amount: 5 }],
  ...extra,
});
