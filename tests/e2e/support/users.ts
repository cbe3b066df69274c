import { expect } from "vitest";
import type { Database } from "@orderbot/db";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";

/** Resolves once every update so far has been delivered (a reply can come before the 200). */
export async function allDelivered(kit: FakeTelegram): Promise<void> {
  await Promise.all(kit.pendingUpdates.map((queued) => queued.settled));
}

/** Finds a product by its name (plain text is a search), opens its card and sets its quantity with +. */
export async function openCard(user: SimulatedUser, title: string, qty = 1): Promise<void> {
  await user.send(title);
  await user.waitForMessage(/^Found \d+ for/, { timeoutMs: 10_000 });
  await user.press(title);
  await user.waitForMessage("Quantity: 1,", { edits: true });
  for (let n = 2; n <= qty; n++) {
    await user.press("+");
    await user.waitForMessage(`Quantity: ${n},`, { edits: true });
  }
}

/** Presses Order on the open card; resolves with the order's public id once it is shown. */
export async function pressOrder(user: SimulatedUser): Promise<string> {
  await user.press(/^Order \d+ for/);
  const shown = await user.waitForMessage(/^Order [2-9A-Z]{8}/, { edits: true });
  const id = /^Order ([2-9A-Z]{8})/.exec(shown.text ?? "")?.[1];
  expect(id).toBeDefined();
  return id!;
}

/** Orders one `title` from its card and presses Pay: the invoice is on screen. The order's id. */
export async function orderToInvoice(user: SimulatedUser, title: string): Promise<string> {
  await openCard(user, title);
  const id = await pressOrder(user);
  await user.press(/^Pay/);
  await user.waitForMessage((m) => m.invoice !== undefined);
  return id;
}

/** A product's stock as the database holds it. */
export async function stockOf(db: Database, sku: string): Promise<number> {
  return (await db.product.findUniqueOrThrow({ where: { sku } })).stock;
}

/** The user pays the invoice shown; the bot's 200 to the successful_payment is lost, so Telegram
 * sends it again. Resolves with the paid charge. */
export async function payWithLostReply(kit: FakeTelegram, user: SimulatedUser) {
  const paying = user.pay();
  const preCheckout = kit.deliveries.findLast(
    (d) => d.update.pre_checkout_query?.from.id === user.id,
  )!;
  await preCheckout.settled;
  kit.faults.delivery({ dropNextResponses: 1 });
  const payment = await paying;
  if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
  return payment;
}
