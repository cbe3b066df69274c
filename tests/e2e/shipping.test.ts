// Physical goods end to end: two bot processes behind one webhook URL, the test kit as Telegram.
// A physical product is invoiced through the provider, asking for an address; the shipping query
// is answered with the options for its country; the payment (goods + the chosen option) is stored
// with the address. An address outside every option is refused, nothing charged. A cart with both
// kinds is refused at checkout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHYSICAL_DEMO_CATALOG, seedCatalog } from "@orderbot/db";
import type { SimulatedUser } from "@orderbot/fake-telegram";
import { addFromCatalog } from "./support/journey.ts";
import { OWNER_ID, startShop, type E2eShop } from "./support/shop.ts";
import { openCard, pressOrder } from "./support/users.ts";

const OPTIONS = [
  { id: "pickup", title: "Pickup in store", price: 0, countries: ["DE"] },
  { id: "courier", title: "Courier", price: 500, countries: ["DE", "AT"] },
  { id: "post", title: "Post", price: 900, countries: ["DE", "AT", "FR", "CN"] },
];
const GONGFU = "Gongfu tea set, shipped";

let shop: E2eShop;
beforeAll(async () => {
  shop = await startShop({
    mode: "webhook",
    replicas: 2,
    env: {
      PROVIDER_TOKEN: "284685063:TEST:e2e-provider",
      PROVIDER_CURRENCY: "USD",
      SHIPPING_OPTIONS: JSON.stringify(OPTIONS),
      INVOICE_NEED_EMAIL: "true",
    },
  });
  await seedCatalog(shop.db, PHYSICAL_DEMO_CATALOG);
});
afterAll(() => shop?.stop());

/** /start, the gongfu set's card, Order, Pay: up to the provider invoice; returns the order id. */
async function invoiceForGongfu(user: SimulatedUser): Promise<string> {
  await user.send("/start");
  await user.waitForMessage("Welcome", { timeoutMs: 10_000 });
  await openCard(user, GONGFU);
  const id = await pressOrder(user);
  await user.press(/^Pay /);
  await user.waitForMessage((m) => m.invoice?.total_amount === 2_900, { timeoutMs: 10_000 });
  return id;
}

describe("a physical order", () => {
  it("is invoiced through the provider, its shipping query answered, paid with shipping, and the address stored", async () => {
    const ann = shop.kit.createUser({ firstName: "Ann", lastName: "Lee", languageCode: "en" });
    const id = await invoiceForGongfu(ann);
    const [sent] = shop.kit.callsTo("sendInvoice").filter((c) => c.params.payload === id);
    expect(sent!.params).toMatchObject({
      currency: "USD",
      provider_token: "284685063:TEST:e2e-provider",
    });
    for (const field of [
      "need_shipping_address",
      "is_flexible",
      "need_name",
      "need_phone_number",
      "need_email",
    ])
      expect(String(sent!.params[field]), field).toBe("true");

    const payment = await ann.pay({ shippingOptionId: "courier" });
    expect(payment).toMatchObject({
      status: "paid",
      totalAmount: 3_400,
      shippingOptionId: "courier",
    });
    const answers = shop.kit.callsTo("answerShippingQuery").filter((c) => c.ok);
    expect(answers).toHaveLength(1);
    // Every option that ships to Germany, in configuration order.
    expect(answers[0]!.params.shipping_options).toEqual(
      OPTIONS.map((o) => ({
        id: o.id,
        title: o.title,
        prices: [{ label: o.title, amount: o.price }],
      })),
    );
    await ann.waitForMessage(`Payment received: order ${id} is paid.`, { timeoutMs: 10_000 });

    const stored = await shop.db.order.findUniqueOrThrow({
      where: { publicId: id },
      include: { payments: true },
    });
    expect(stored).toMatchObject({
      status: "PAID",
      totalMinor: 2_900,
      shippingOptionId: "courier",
      shippingMinor: 500,
    });
    expect(stored.payments).toMatchObject([
      { status: "CAPTURED", amountMinor: 3_400, currency: "USD" },
    ]);
    expect(stored.orderInfo).toMatchObject({
      name: "Ann Lee",
      email: `user${ann.id}@example.com`,
      shipping_address: { country_code: "DE", city: "Berlin", post_code: "10115" },
    });
  });

  it("is refused for an address outside every option: a clear message, nothing charged", async () => {
    const bo = shop.kit.createUser({ firstName: "Bo", languageCode: "en" });
    const id = await invoiceForGongfu(bo);
    const payment = await bo.pay({
      buyer: {
        shippingAddress: {
          country_code: "BR",
          state: "PE",
          city: "Recife",
          street_line1: "Rua da Aurora 1",
          street_line2: "",
          post_code: "50050-000",
        },
      },
    });
    expect(payment).toMatchObject({
      status: "shipping-declined",
      errorMessage: "We do not ship to BR yet; nothing was charged.",
    });
    expect(shop.kit.callsTo("answerPreCheckoutQuery")).toHaveLength(1); // Ann's only
    const stored = await shop.db.order.findUniqueOrThrow({
      where: { publicId: id },
      include: { payments: true },
    });
    expect(stored).toMatchObject({ status: "RESERVED", shippingOptionId: null, orderInfo: null });
    expect(stored.payments).toEqual([]);
  });

  it("shows operators the buyer's name, address and phone masked; Show contact reveals them to the presser, recorded", async () => {
    const { kit } = shop;
    const owner = kit.createUser({ id: OWNER_ID, firstName: "Olga", languageCode: "en" });
    const group = kit.createGroup({ title: "Operators", creator: owner });
    await owner.send("/bind", { in: group });
    await group.waitForMessage("This group is now the shop's operator group");

    const dana = kit.createUser({ firstName: "Dana", languageCode: "en" });
    const id = await invoiceForGongfu(dana);
    const phone = "+49 151 2345 6789";
    const buyer = { name: "Dana Fischer", phoneNumber: phone, email: "dana.f@mailbox.org" };
    const paid = await dana.pay({ shippingOptionId: "post", buyer });
    expect(paid).toMatchObject({ status: "paid", totalAmount: 3_800 });
    await dana.waitForMessage(`Payment received: order ${id} is paid.`, { timeoutMs: 10_000 });

    await shop.relayOutbox();
    const alert = await group.waitForMessage(`Order ${id} was paid: 38.00 USD.`);
    expect(alert.text).toContain("Shipping: Post (9.00 USD)");
    // Every member sees the paid alert and /order: the buyer's details masked, as the phone.
    await owner.send(`/order ${id}`, { in: group });
    const detail = await group.waitForMessage(`Order ${id}`);
    for (const shown of [alert.text, detail.text]) {
      expect(shown).toContain("Deliver to: D••• F•••, •••, Berlin, DE");
      expect(shown).toContain("Phone: +49 ••• ••• 89");
      expect(shown).toContain("E-mail: d•••@m•••.org");
      for (const secret of ["2345", "Fischer", "Musterstraße", "10115", "dana.f", "mailbox"])
        expect(shown).not.toContain(secret);
    }

    const press = await owner.press("Show contact", { in: group, messageId: alert.message_id });
    expect(await press.answered(5_000)).toMatchObject({
      text: `Order ${id}:\nDana Fischer\nMusterstraße 1, 10115 Berlin, DE\n${phone}\ndana.f@mailbox.org`,
      showAlert: true,
    });
    const reveals = await shop.db.orderPhoneReveal.findMany({ where: { order: { publicId: id } } });
    expect(reveals).toHaveLength(1);
    expect(reveals[0]!.actorName).toBe("Olga");
    expect(reveals[0]!.actor).not.toContain(String(OWNER_ID));
  });

  it("cannot share a cart with digital goods: checkout says why and what to do", async () => {
    const cy = shop.kit.createUser({ firstName: "Cy", languageCode: "en" });
    await cy.send("/start");
    await cy.waitForMessage("Welcome", { timeoutMs: 10_000 });
    await addFromCatalog(cy, ["Teaware"], "Celadon tea cup");
    await openCard(cy, GONGFU);
    await cy.press("🛒 Add 1 to cart");
    await cy.waitForMessage(/In your cart: \d+/, { edits: true, timeoutMs: 10_000 });
    await cy.send("/cart");
    await cy.waitForMessage("Your cart:", { timeoutMs: 10_000 });
    const press = await cy.press(/^✅ Checkout/);
    expect((await press.answered(5_000)).text).toMatch(
      /cannot share an order\. Nothing was reserved/,
    );
    expect(await shop.db.order.count({ where: { userId: BigInt(cy.id) } })).toBe(0);
  });
});
