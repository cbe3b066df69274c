import { setTimeout as sleep } from "node:timers/promises";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import {
  buttonsOf,
  delivered,
  FlowStopped,
  messageIn,
  openProduct,
  screenAfter,
  type ShopperProduct,
} from "./shopper-screens.ts";
import { applyPromoCode } from "./promo-shopper.ts";

export type { ShopperProduct };

/** How a press of Checkout (or Order) ended, as the user saw it. */
export type PlaceOutcome = "placed" | "out-of-stock" | "unavailable" | "busy" | "limit" | "other";
/** What the user did with an order. */
export type Intent = "pay" | "cancel" | "abandon";
export type Step = "order" | "pay";

/** One press of Checkout, for the effects check: the press's update and what the user was shown. */
export interface OrderPress {
  updateId: number;
  userId: number;
  chatId: number;
  messageId: number;
  data: string;
  outcome: PlaceOutcome;
  /** The order id the bot showed, when it placed one, and whether it could still be paid. */
  orderId?: string;
  open?: boolean;
  /** What the callback answer said, when it refused. */
  answer?: string;
  at: number;
}

export interface CustomerResult {
  userId: number;
  press?: OrderPress;
  intent?: Intent;
  /** The pay step: paid (with the charge id), refused before the invoice, declined at pre-checkout, timed out. */
  payment?: {
    /** shipping-*: a physical order's address was refused, or the shipping query not answered. */
    status: "paid" | "refused" | "declined" | "timeout" | "shipping-declined" | "shipping-timeout";
    chargeId?: string;
    answer?: string;
  };
  cancelled?: boolean;
  /** Every product card this user opened offered no Add to cart: sold out before they came. */
  soldOutOnCard?: boolean;
  /** Why the flow stopped early (a button the bot did not show, an update Telegram gave up on). */
  error?: string;
}

export interface CustomerOptions {
  kit: FakeTelegram;
  /** Products to choose from: English titles, or titles with the categories that lead to them. */
  products: (string | ShopperProduct)[];
  /** At most this many different products in one cart (default 1). */
  maxLines?: number;
  /** Weights of pay, cancel and abandon. */
  intents: Record<Intent, number>;
  maxQuantity: number;
  thinkMs: [number, number];
  random: () => number;
  /** Called before pressing Checkout ("order") and before paying; a scenario can hold users there. */
  gate?: (step: Step) => Promise<void>;
  /** This share (0-1) of shoppers applies the promo code to the cart before Checkout. */
  promo?: { code: string; share: number };
}

const ORDER_ID = /Order ([A-Z0-9]{6,16})\b/;

function classify(answer: string): PlaceOutcome {
  if (/not enough in stock/i.test(answer)) return "out-of-stock";
  if (/temporarily unavailable/i.test(answer)) return "unavailable";
  if (/still processing/i.test(answer)) return "busy";
  if (/open orders/i.test(answer)) return "limit";
  return "other";
}

const productOf = (p: string | ShopperProduct): ShopperProduct =>
  typeof p === "string" ? { title: p } : p;

/** `n` different products, drawn at random (fewer when there are fewer). */
function draw<T>(items: readonly T[], n: number, random: () => number): T[] {
  const pool = [...items];
  const drawn: T[] = [];
  while (drawn.length < n && pool.length > 0)
    drawn.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return drawn;
}

/**
 * One shopper, as a person would go: /start; then for each of 1 to `maxLines` products, find it
 * (by search, or through /catalog and its categories), pick a quantity with + and add it to the
 * cart; then /cart, Checkout; then pay, cancel or walk away (the reservation then expires). Each
 * step waits until Telegram has delivered the update (the bot answers webhooks after handling
 * them), then reads what the chat shows. Refusals are outcomes, not errors.
 */
export async function runCustomer(
  user: SimulatedUser,
  options: CustomerOptions,
): Promise<CustomerResult> {
  const { kit, random } = options;
  const result: CustomerResult = { userId: user.id };
  const think = () =>
    sleep(options.thinkMs[0] + random() * (options.thinkMs[1] - options.thinkMs[0]));
  try {
    await delivered(await user.send("/start"), "/start");
    await think();
    const lines = 1 + Math.floor(random() * (options.maxLines ?? 1));
    let added = 0;
    for (const product of draw(options.products.map(productOf), lines, random)) {
      let card = await openProduct(kit, user, product, random() < 0.5);
      const wanted = 1 + Math.floor(random() ** 2 * options.maxQuantity);
      for (let qty = 1; qty < wanted && buttonsOf(card).includes("+"); qty++) {
        await delivered(await user.press("+", { messageId: card.message_id }), "quantity");
        card = screenAfter(kit, user, card.message_id);
      }
      const add = buttonsOf(card).find((b) => /^🛒 Add \d+ to cart$/.test(b));
      if (!add) continue; // sold out (or the line is full) before this shopper got there
      await delivered(await user.press(add, { messageId: card.message_id }), "add to cart");
      added++;
      await think();
    }
    if (added === 0) {
      result.soldOutOnCard = true;
      return result;
    }
    await delivered(await user.send("/cart"), "/cart");
    let cart = screenAfter(kit, user, -1);
    if (options.promo && random() < options.promo.share)
      cart = await applyPromoCode(kit, user, cart, options.promo.code);
    const checkout = buttonsOf(cart).find((b) => b.startsWith("✅ Checkout"));
    if (!checkout) throw new FlowStopped("the cart has no Checkout button");
    await options.gate?.("order");
    const press = await user.press(checkout, { messageId: cart.message_id });
    await delivered(press, "checkout");
    result.press = await readPlaceOutcome(kit, user, press);
    if (result.press.outcome !== "placed" || !result.press.open) return result;
    await think();
    result.intent = pick(options.intents, random);
    if (result.intent === "pay") await pay(kit, user, result, options);
    else if (result.intent === "cancel") await cancel(user, result, result.press.messageId);
    return result;
  } catch (error) {
    result.error =
      error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
    return result;
  }
}

async function readPlaceOutcome(
  kit: FakeTelegram,
  user: SimulatedUser,
  press: Awaited<ReturnType<SimulatedUser["press"]>>,
): Promise<OrderPress> {
  const base = {
    updateId: press.updateId,
    userId: user.id,
    chatId: user.chatId,
    messageId: press.message.message_id,
    data: press.data,
    at: Date.now(),
  };
  // The card turned into the order: placed. (Without Pay and Cancel when it is no longer open: a
  // press re-delivered after a crash may only run once the reservation has run out.)
  const shown = messageIn(kit, user, press.message.message_id);
  const placed = shown?.text && ORDER_ID.exec(shown.text);
  if (placed)
    return {
      ...base,
      outcome: "placed",
      orderId: placed[1]!,
      open: buttonsOf(shown).some((b) => b.startsWith("Pay ")),
    };
  const answer = (await press.answered(1_000).catch(() => undefined))?.text ?? "";
  return { ...base, outcome: classify(answer), answer };
}

async function pay(
  kit: FakeTelegram,
  user: SimulatedUser,
  result: CustomerResult,
  options: CustomerOptions,
): Promise<void> {
  await options.gate?.("pay");
  const press = await user.press(/^Pay /);
  await delivered(press, "pay");
  const invoice = kit
    .chat(user)
    .botMessages.findLast(
      (m) => m.invoice !== undefined && m.invoice.title.includes(result.press?.orderId ?? "?"),
    );
  if (!invoice) {
    const answer = (await press.answered(1_000).catch(() => undefined))?.text ?? "";
    result.payment = { status: "refused", answer };
    return;
  }
  const paid = await user.pay({ invoice });
  if (paid.status === "paid") {
    result.payment = { status: "paid", chargeId: paid.chargeId };
    await delivered(paid, "successful_payment");
  } else {
    result.payment = {
      status: paid.status,
      ...(paid.status === "declined" || paid.status === "shipping-declined"
        ? { answer: paid.errorMessage }
        : {}),
    };
  }
}

async function cancel(
  user: SimulatedUser,
  result: CustomerResult,
  messageId: number,
): Promise<void> {
  const press = await user.press("Cancel order", { messageId });
  await delivered(press, "cancel");
  const answer = (await press.answered(1_000).catch(() => undefined))?.text ?? "";
  result.cancelled = /is cancelled/.test(answer);
}

function pick(weights: Record<Intent, number>, random: () => number): Intent {
  const total = weights.pay + weights.cancel + weights.abandon;
  let r = random() * total;
  for (const intent of ["pay", "cancel", "abandon"] as const) {
    r -= weights[intent];
    if (r < 0) return intent;
  }
  return "abandon";
}
