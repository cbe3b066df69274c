// What a customer does before the part a test is about.
import type { SimulatedUser } from "@orderbot/fake-telegram";

/** Searches for the Panda mug (the one product by that name) and opens its card, at quantity 1. */
export async function openPandaMug(user: SimulatedUser): Promise<void> {
  await user.send("Panda mug");
  await user.waitForMessage(/^Found 1 for/);
  await user.press("Panda mug");
  await user.waitForMessage("Quantity: 1,", { edits: true });
}
