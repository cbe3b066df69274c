// How a simulated shopper reads the bot's screens: a press shows the next screen in the pressed
// message, or, between a text and a photo card, in a new message that replaces it (the bot sends
// the new one, then deletes the old). And how a shopper finds a product: by search or by category.
import type { FakeTelegram, SimulatedUser, TgMessage, UserAction } from "@orderbot/fake-telegram";

/** A product the shoppers may buy: its English title, and the category titles that lead to it. */
export interface ShopperProduct {
  title: string;
  /** Top-level category title first, then the subcategory's (English); absent: found by search. */
  categories?: string[];
}

export class FlowStopped extends Error {
  override name = "FlowStopped";
}

export async function delivered(action: UserAction, what: string): Promise<void> {
  const outcome = await action.handled();
  if (outcome.status !== "delivered")
    throw new FlowStopped(`${what}: update ${outcome.status} (${outcome.reason ?? "no reason"})`);
}

/** The message with this id as the chat shows it now (edits applied), if still there. */
export function messageIn(
  kit: FakeTelegram,
  user: SimulatedUser,
  messageId: number,
): TgMessage | undefined {
  return kit.chat(user).messages.find((m) => m.message_id === messageId);
}

/** The screen after a press on `messageId`: that message, or the one that replaced it. */
export function screenAfter(kit: FakeTelegram, user: SimulatedUser, messageId: number): TgMessage {
  const screen = messageIn(kit, user, messageId) ?? kit.chat(user).lastBotMessage;
  if (!screen) throw new FlowStopped("the bot showed nothing");
  return screen;
}

export function buttonsOf(message: TgMessage | undefined): string[] {
  return (message?.reply_markup?.inline_keyboard ?? []).flat().map((b) => b.text);
}

/** What the screen says: a text, or a photo card's caption. */
export const said = (message: TgMessage | undefined): string =>
  message?.text ?? message?.caption ?? "";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Presses a button of this screen and returns the screen it leads to. */
async function pressOn(
  kit: FakeTelegram,
  user: SimulatedUser,
  screen: TgMessage,
  label: string | RegExp,
  what: string,
): Promise<TgMessage> {
  await delivered(await user.press(label, { messageId: screen.message_id }), what);
  return screenAfter(kit, user, screen.message_id);
}

/** The listing's page that has a button with the product's title (◀ ▶ through at most 10 pages). */
async function pageWith(
  kit: FakeTelegram,
  user: SimulatedUser,
  listing: TgMessage,
  title: string,
): Promise<TgMessage> {
  let screen = listing;
  for (let page = 1; !buttonsOf(screen).includes(title); page++) {
    if (page > 10 || !buttonsOf(screen).includes("Next ▶"))
      throw new FlowStopped(`"${title}" is not in the listing`);
    screen = await pressOn(kit, user, screen, "Next ▶", "next page");
  }
  return screen;
}

/**
 * Opens a product's card the way a person finds it: typing its name (plain text is a search), or
 * /catalog and its category, then its subcategory. Returns the card (a text or a photo message).
 */
export async function openProduct(
  kit: FakeTelegram,
  user: SimulatedUser,
  product: ShopperProduct,
  browse: boolean,
): Promise<TgMessage> {
  let listing: TgMessage;
  if (browse && product.categories?.length) {
    await delivered(await user.send("/catalog"), "/catalog");
    listing = screenAfter(kit, user, -1);
    for (const category of product.categories) {
      listing = await pressOn(
        kit,
        user,
        listing,
        new RegExp(`^${escape(category)} \\(\\d+\\)$`),
        "category",
      );
    }
  } else {
    await delivered(await user.send(product.title), "search");
    listing = screenAfter(kit, user, -1);
  }
  const page = await pageWith(kit, user, listing, product.title);
  return pressOn(kit, user, page, product.title, "product");
}
