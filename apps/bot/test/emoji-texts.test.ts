// Texts cut in the middle of an emoji: a customer's name (payment), a question (support) and an
// invoice's description, each cut at every offset around its limit. A cut by UTF-16 units left half
// an emoji, which Telegram refuses and PostgreSQL refuses in jsonb, so the payment's transaction
// failed on every retry. Every one must be recorded. In-process bot, real PostgreSQL and Redis.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import { MAX_SUPPORT_TEXT } from "@orderbot/core/customers";
import { callbacks } from "@orderbot/conversation";
import { MAX_CUSTOMER_NAME } from "../src/format/customer-name.ts";
import { MAX_INVOICE_DESCRIPTION } from "../src/format/promo.ts";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";

let h: BotHarness;
let kit: FakeTelegram;

beforeAll(async () => {
  h = await startBotHarness();
  kit = h.kit;
  const owner = kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
  const operators = kit.createGroup({ title: "Shop operators", creator: owner });
  await owner.send("/bind", { in: operators });
  await operators.waitForMessage(/operator group/);
});
afterAll(() => h?.close());

const EMOJI = ["🍵", "👩‍👩‍👧", "🇨🇳", "👍🏽", "茶", "é", "\ud83d"];

/**
 * A text whose limit falls anywhere in a run of emoji: `lead` plain characters (from a few before
 * the limit to one after), then emoji, some of them lone halves as JSON can carry them.
 */
const around = (limit: number) =>
  fc
    .record({
      lead: fc.integer({ min: limit - 14, max: limit + 1 }),
      tail: fc.array(fc.constantFrom(...EMOJI), { minLength: 1, maxLength: 8 }),
    })
    .map(({ lead, tail }) => `${"a".repeat(lead)}${tail.join("")}`);

let products = 0;
/** A Stars product of its own, with plenty of stock, titled `title`. */
async function product(title: string): Promise<number> {
  const sku = `EMOJI-${++products}`;
  const created = await h.db.product.create({
    data: { sku, titleEn: title, titleZh: title, priceMinor: 5, currency: "XTR", stock: 100 },
  });
  return created.id;
}

/** Orders one unit, pays its invoice and returns the order as stored. */
async function buy(user: SimulatedUser, productId: number) {
  await user.send("/start");
  await user.waitForMessage("Welcome");
  await user.pressData(callbacks.order.encode({ productId, qty: 1, categoryId: 0, page: 1 }), {
    force: true,
  });
  const placed = await user.waitForMessage(/Order [2-9A-Z]{8}/, { edits: true });
  const id = /Order ([2-9A-Z]{8})/.exec(placed.text!)![1]!;
  await user.press(/^Pay/);
  const invoice = await user.waitForMessage((m) => m.invoice !== undefined);
  expect(invoice.invoice?.description.isWellFormed()).toBe(true);
  expect((await user.pay()).status).toBe("paid");
  await user.waitForMessage(`Payment received: order ${id} is paid.`);
  return h.db.order.findUniqueOrThrow({ where: { publicId: id }, include: { payments: true } });
}

describe("texts cut around an emoji", () => {
  it("records the payment of a customer whose name is cut at every offset", async () => {
    const productId = await product("Tea");
    await fc.assert(
      fc.asyncProperty(around(MAX_CUSTOMER_NAME), async (name) => {
        const buyer = kit.createUser({ firstName: name, languageCode: "en" });
        const order = await buy(buyer, productId);
        expect(order.status).toBe("PAID");
        expect(order.payments.map((p) => p.status)).toEqual(["CAPTURED"]);
      }),
      { numRuns: 12 },
    );
  });

  it("records an invoice whose description is cut at every offset, and its payment", async () => {
    await fc.assert(
      fc.asyncProperty(around(MAX_INVOICE_DESCRIPTION), async (title) => {
        const buyer = kit.createUser({ firstName: "Ann", languageCode: "en" });
        const order = await buy(buyer, await product(title));
        expect(order.payments.map((p) => p.status)).toEqual(["CAPTURED"]);
      }),
      { numRuns: 12 },
    );
  });

  it("records a question cut at every offset, from a customer with such a name", async () => {
    await fc.assert(
      fc.asyncProperty(
        around(MAX_SUPPORT_TEXT),
        around(MAX_CUSTOMER_NAME),
        async (question, name) => {
          const asker = kit.createUser({ firstName: name, languageCode: "en" });
          await asker.send("/start");
          await asker.waitForMessage("Welcome");
          await asker.pressData(callbacks.menu.encode({ action: "contact" }), { force: true });
          const prompt = await asker.waitForMessage("Write your question");
          await asker.send(question, { replyTo: prompt.message_id });
          const sent = await asker.waitForMessage(/Your question #(\d+) has reached the shop/);
          const requestId = Number(/#(\d+)/.exec(sent.text!)![1]);
          const stored = await h.db.supportRequest.findUniqueOrThrow({ where: { id: requestId } });
          expect(stored.text.isWellFormed()).toBe(true);
          expect(question.toWellFormed().startsWith(stored.text)).toBe(true);
        },
      ),
      { numRuns: 12 },
    );
  });

  it("makes every text from Telegram well-formed before anything reads it (the update's edge)", async () => {
    // Telegram's JSON can carry half an emoji ("\ud83d"); /paysupport keeps its text uncut.
    const asker = kit.createUser({ firstName: "Ann \ud83d", languageCode: "en" });
    await asker.send("/start");
    await asker.waitForMessage("Welcome");
    await asker.send("/paysupport Where is my 🍵 \ud83d?");
    const sent = await asker.waitForMessage(/Your request #(\d+) has reached the shop/);
    const stored = await h.db.supportRequest.findUniqueOrThrow({
      where: { id: Number(/#(\d+)/.exec(sent.text!)![1]) },
    });
    expect(stored.text).toBe("Where is my 🍵 \ufffd?");
  });
});
