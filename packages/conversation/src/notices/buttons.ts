// The buttons under the worker's notices, as plain data: `label` is the id of the text rendered in
// the recipient's language, `data` the callback data of the bot's own codecs (callbacks/), so a
// button the worker sends is decoded by the bot like one it sent itself.
import type { OrderStatus } from "@orderbot/db";
import { nextFulfilmentSteps, type FulfilmentStep } from "@orderbot/core/fulfilment";
import { callbacks } from "../callbacks/index.ts";

export interface NoticeButton {
  label: string;
  data: string;
}

export interface FulfilmentButton extends NoticeButton {
  step: FulfilmentStep;
}

/** A paid order's next steps, as its operators' alert and /order offer them. */
export function fulfilmentButtons(orderId: string, status: OrderStatus): FulfilmentButton[] {
  return nextFulfilmentSteps(status).map((step) => ({
    step,
    label: `btn-fulfil-${step.toLowerCase()}`,
    data: callbacks.fulfil.encode({ orderId, step }),
  }));
}

/** "Show contact" under a physical order's paid alert: the buyer's details, to who presses. */
export function showPhoneButton(orderId: string): NoticeButton {
  return { label: "btn-show-phone", data: callbacks.showPhone.encode({ orderId }) };
}

/** A card the worker edits keeps a way back, as the bot's own cards have (keyboards/order.ts). */
export const CARD_WAY_BACK: readonly NoticeButton[] = [
  { label: "btn-my-orders", data: callbacks.menu.encode({ action: "orders" }) },
  { label: "btn-menu-catalog", data: callbacks.catalogPage.encode({ page: 1 }) },
];
