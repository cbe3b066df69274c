// The steps of a customer's shopping journey, as a person presses them, shared by the end-to-end
// tests that go on from a paid order (shipping, delivery).
import { expect } from "vitest";
import type { SimulatedUser } from "@orderbot/fake-telegram";

const WAIT = { edits: true, timeoutMs: 10_000 } as const;

/**
 * /catalog → a category (and a subcategory) → the product → quantity → Add to cart. `path`: the
 * category buttons' titles, without their counts.
 */
export async function addFromCatalog(
  user: SimulatedUser,
  path: readonly string[],
  title: string,
  qty = 1,
): Promise<void> {
  await user.send("/catalog");
  const root = await user.waitForMessage("Catalog: pick a category.", { timeoutMs: 10_000 });
  let messageId = root.message_id;
  for (const category of path) {
    const escaped = category.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await user.press(new RegExp(`^${escaped} \\(\\d+\\)$`), { messageId });
    const shown = await user.waitForMessage(new RegExp(`^${escaped}, page 1`), WAIT);
    messageId = shown.message_id;
  }
  await user.press(title, { messageId });
  await user.waitForMessage("Quantity: 1,", WAIT);
  for (let n = 2; n <= qty; n++) {
    await user.press("+", { messageId });
    await user.waitForMessage(`Quantity: ${n},`, WAIT);
  }
  await user.press(`🛒 Add ${qty} to cart`, { messageId });
  await user.waitForMessage(/In your cart: \d+/, WAIT);
}

/** Opens the cart from /cart and presses Checkout; resolves with the order id once shown. */
export async function checkout(user: SimulatedUser, total: number): Promise<string> {
  await user.send("/cart");
  await user.waitForMessage("Your cart:", { timeoutMs: 10_000 });
  await user.press(`✅ Checkout · ${total} ⭐`);
  const order = await user.waitForMessage(/^Order [2-9A-Z]{8}/, WAIT);
  const id = /^Order ([2-9A-Z]{8})/.exec(order.text ?? "")![1]!;
  expect(order.text).toContain(`Total: ${total} ⭐`);
  return id;
}

/** Pay on the order card, then pays the invoice; resolves once the bot has recorded it. */
export async function pay(user: SimulatedUser, id: string, total: number): Promise<void> {
  await user.press(`Pay ${total} ⭐`);
  await user.waitForMessage((m) => m.invoice?.total_amount === total, { timeoutMs: 10_000 });
  const payment = await user.pay();
  expect(payment.status).toBe("paid");
  await user.waitForMessage(new RegExp(`Payment received.*${id}`), { timeoutMs: 10_000 });
}

/**
 * A cart of three products from three categories, checked out and paid: Longjing tea ×2 (Tea →
 * Green and white tea), a celadon cup (Teaware), a panda mug (Home and kitchen). 50 + 15 + 12 ⭐.
 */
export async function buyCartOfThree(user: SimulatedUser): Promise<{ id: string; total: number }> {
  await addFromCatalog(user, ["Tea", "Green and white tea"], "Longjing green tea, 100 g", 2);
  await addFromCatalog(user, ["Teaware"], "Celadon tea cup");
  await addFromCatalog(user, ["Home and kitchen"], "Panda mug");
  const total = 77;
  const id = await checkout(user, total);
  await pay(user, id, total);
  return { id, total };
}
