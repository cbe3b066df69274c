// Physical goods without a payment provider: shown and orderable, but Pay says the shop takes no
// card payments yet and sends no invoice; a digital order still gets its Stars invoice (a provider
// shop's shipping flow is tests/e2e/shipping.test.ts). In-process bot, real HTTP, PostgreSQL and
// Redis.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHYSICAL_DEMO_CATALOG, seedCatalog } from "@orderbot/db";
import type { SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import { startBotHarness, type BotHarness } from "./support/harness.ts";

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness();
  await seedCatalog(h.db, PHYSICAL_DEMO_CATALOG);
});
afterAll(() => h?.close());

async function placeOrder(user: SimulatedUser, sku: string): Promise<string> {
  const product = await h.db.product.findUniqueOrThrow({ where: { sku } });
  await user.send("/catalog");
  await user.waitForMessage("Catalog");
  await user.pressData(
    callbacks.order.encode({ productId: product.id, qty: 1, categoryId: 0, page: 1 }),
    { force: true },
  );
  const placed = await user.waitForMessage(/Order [2-9A-Z]{8}/, { edits: true });
  return /Order ([2-9A-Z]{8})/.exec(placed.text!)![1]!;
}

describe("a shop without a payment provider", () => {
  it("takes orders for physical goods but sends no invoice, saying why; Stars goods are invoiced", async () => {
    const ann = h.kit.createUser({ firstName: "Ann", languageCode: "en" });
    const id = await placeOrder(ann, PHYSICAL_DEMO_CATALOG[0]!.sku);
    const press = await ann.press(/^Pay /);
    expect((await press.answered()).text).toBe(
      `Order ${id} has goods that are shipped, and the shop does not take card payments yet. Nothing was charged; please ask the shop with /paysupport.`,
    );
    expect(h.kit.callsTo("sendInvoice")).toHaveLength(0);

    await placeOrder(ann, "FAN-SILK");
    const pay = await ann.press(/^Pay /);
    await ann.waitForMessage((m) => m.invoice?.currency === "XTR");
    // Answered once the invoice exists (and its call is recorded).
    await pay.answered();
    const [invoice] = h.kit.callsTo("sendInvoice");
    expect(invoice!.params).toMatchObject({ currency: "XTR", provider_token: "" });
    expect(invoice!.params.need_shipping_address).toBeUndefined();
  });
});
