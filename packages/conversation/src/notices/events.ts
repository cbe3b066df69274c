// An event's delivery as the notice that tells it: the template its kind is told by, and its ids
// and facts as that template's arguments. Who the customer is, and how much of their id operators
// see, is decided here, when the delivery is sent.
import { eventSchema, type ShopEvent } from "@orderbot/core/events";
import { UnknownTemplateError } from "./fluent.ts";
import type { NoticeFacts, Params } from "./render.ts";

export interface EventNotice {
  template: string;
  params: Params;
  facts: NoticeFacts;
}

type Customer = Extract<ShopEvent, { kind: "order.paid" }>["customer"];

/** "Ann Lee (@ann_lee)", with "· ••••0001" when `masked`: never more of the id than that. */
function customerLabel(customer: Customer, masked: boolean): string {
  const id = maskedId(customer.userId);
  if (customer.name === undefined) return masked ? id : "";
  const name = customer.username ? `${customer.name} (@${customer.username})` : customer.name;
  return masked ? `${name} · ${id}` : name;
}

const maskedId = (userId: string): string => `••••${userId.slice(-4)}`;

/** `payload`: the event's kind and facts, with what the recipient rule added (`threshold`). */
export function noticeOfEvent(payload: Record<string, unknown>): EventNotice {
  const parsed = eventSchema.safeParse(payload);
  if (!parsed.success) throw new UnknownTemplateError(String(payload.kind));
  const event = parsed.data;
  switch (event.kind) {
    case "order.paid": {
      const { kind: _, customer, codeTails, ...ids } = event;
      const params = { ...ids, customer: customerLabel(customer, true) };
      return { template: "operator-order-paid", params, facts: { codeTails } };
    }
    case "question.asked": {
      const { kind: _, customer, orders, ...facts } = event;
      const params = { ...facts, customer: customerLabel(customer, false) };
      return { template: "operator-support-request", params, facts: { recentOrders: orders } };
    }
    case "stock.low": {
      const { kind: _, ...facts } = event;
      const threshold = typeof payload.threshold === "number" ? payload.threshold : undefined;
      return { template: "operator-low-stock", params: { ...facts, threshold }, facts: {} };
    }
    case "refund.needed": {
      const { kind: _, ...facts } = event;
      return { template: "operator-refund-needed", params: facts, facts: {} };
    }
    case "refund.outside": {
      const { kind: _, ...facts } = event;
      return { template: "operator-refunded-outside", params: facts, facts: {} };
    }
    case "ledger.finding": {
      const { kind: _, finding, ...facts } = event;
      return {
        template: "operator-ledger-finding",
        params: { ...facts, kind: finding },
        facts: {},
      };
    }
    case "order.expired":
    case "order.moved":
    case "order.refunded":
    case "payment.received":
    case "payment.rejected":
    case "question.answered":
      return customerNotice(event);
  }
}

type OperatorKind =
  | "order.paid"
  | "question.asked"
  | "stock.low"
  | "refund.needed"
  | "refund.outside"
  | "ledger.finding";

/** A notice to the customer the event's ids name. */
function customerNotice(event: Exclude<ShopEvent, { kind: OperatorKind }>): EventNotice {
  switch (event.kind) {
    case "order.expired":
      return { template: "order-expired", params: { orderId: event.orderId }, facts: {} };
    case "order.moved": {
      const { orderId, status, note } = event;
      const params = { orderId, status, step: status, note, hasNote: note ? "yes" : "no" };
      return { template: "order-status", params, facts: {} };
    }
    case "payment.received": {
      const params = { orderId: event.orderId, hasCodes: event.codesDelivered ? "yes" : "no" };
      return { template: "payment-received", params, facts: {} };
    }
    case "order.refunded": {
      const { kind: _, telegramChargeId: __, ...facts } = event;
      return { template: "order-refunded", params: facts, facts: {} };
    }
    case "payment.rejected": {
      const { kind: _, telegramChargeId: __, ...facts } = event;
      return { template: "payment-refunded", params: facts, facts: {} };
    }
    case "question.answered": {
      const { kind: _, ...facts } = event;
      return { template: "support-answer", params: facts, facts: {} };
    }
  }
}
