// A buyer filling in Telegram's payment form for a provider invoice: the details it asks for (name,
// phone, e-mail, address), and for a flexible invoice the shipping_query the bot must answer with
// the options for that address before the buyer can choose one and pay.
import type { OrderInfo, ShippingAddress, ShippingOption } from "@grammyjs/types";
import { actionOf, type UserAction } from "./actions.ts";
import type { KitContext } from "./methods/context.ts";
import type { InvoiceAsks } from "./state.ts";
import type { User } from "./types.ts";
import { postUpdate } from "./updates.ts";
import { waitForState } from "./waits.ts";

/** What the simulated buyer types into the form; anything left out comes from DEFAULT_BUYER. */
export interface BuyerDetails {
  name?: string;
  phoneNumber?: string;
  email?: string;
  shippingAddress?: ShippingAddress;
}

/** A made-up address in Berlin, and a phone and e-mail no one has. */
export const DEFAULT_ADDRESS: ShippingAddress = {
  country_code: "DE",
  state: "",
  city: "Berlin",
  street_line1: "Musterstraße 1",
  street_line2: "",
  post_code: "10115",
};

export function defaultBuyer(user: User): Required<BuyerDetails> {
  return {
    name: [user.first_name, user.last_name].filter(Boolean).join(" "),
    phoneNumber: `+49 30 ${String(user.id).slice(-7)}`,
    email: `user${user.id}@example.com`,
    shippingAddress: DEFAULT_ADDRESS,
  };
}

/** The order_info Telegram sends for what the invoice asked (none asked: undefined). */
export function orderInfoFor(
  asks: InvoiceAsks | undefined,
  user: User,
  details: BuyerDetails = {},
): OrderInfo | undefined {
  if (!asks) return undefined;
  const buyer = { ...defaultBuyer(user), ...details };
  const info: OrderInfo = {
    ...(asks.name ? { name: buyer.name } : {}),
    ...(asks.phoneNumber ? { phone_number: buyer.phoneNumber } : {}),
    ...(asks.email ? { email: buyer.email } : {}),
    ...(asks.shippingAddress ? { shipping_address: structuredClone(buyer.shippingAddress) } : {}),
  };
  return Object.keys(info).length ? info : undefined;
}

/** A shipping_query is sent only for an invoice that asks for an address and is flexible. */
export function needsShippingQuery(asks: InvoiceAsks | undefined): boolean {
  return asks?.shippingAddress === true && asks.flexible;
}

export type ShippingStep = { shippingQuery: UserAction; shippingQueryId: string } & (
  | { status: "answered"; options: ShippingOption[] }
  | { status: "declined"; errorMessage: string }
  | { status: "timeout" }
);

/** Sends the shipping_query and waits (at most `timeoutMs`) for answerShippingQuery. */
export async function askShipping(
  ctx: KitContext,
  user: User,
  payload: string,
  address: ShippingAddress,
  timeoutMs: number,
): Promise<ShippingStep> {
  const { state } = ctx;
  const id = state.allocateQueryId();
  state.shippingQueries.set(id, { id, from: user, createdAt: Date.now(), expired: false });
  const queued = postUpdate(
    ctx,
    {
      shipping_query: {
        id,
        from: user,
        invoice_payload: payload,
        shipping_address: structuredClone(address),
      },
    },
    user.id,
  );
  const sent = { shippingQuery: actionOf(queued), shippingQueryId: id };
  const answer = await waitForState(
    state,
    () => state.shippingQueries.get(id)?.answer ?? undefined,
    timeoutMs,
    () => {
      state.shippingQueries.get(id)!.expired = true;
      return { ok: false, at: Date.now(), timedOut: true as const };
    },
  );
  if ("timedOut" in answer) return { ...sent, status: "timeout" };
  if (!answer.ok) return { ...sent, status: "declined", errorMessage: answer.errorMessage ?? "" };
  return { ...sent, status: "answered", options: answer.options ?? [] };
}
