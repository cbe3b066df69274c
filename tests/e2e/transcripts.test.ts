// Golden transcripts of the conversation (docs/transcripts/): a customer in English, one in Chinese
// and the operators, through a real bot process, the worker's outbox relay and the fake Telegram.
// The test fails when what people read changes and the transcript was not updated with it:
//   UPDATE_TRANSCRIPTS=1 npm test -- tests/e2e/transcripts.test.ts
// rewrites them; review the diff like code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser, TgMessage } from "@orderbot/fake-telegram";
import { withinOneUtcDay } from "@orderbot/testkit";
import { OWNER_ID, startShop, type E2eShop } from "./support/shop.ts";
import { Transcript } from "./support/transcript.ts";

let shop: E2eShop;
let owner: SimulatedUser;
let operators: SimulatedGroup;

beforeAll(async () => {
  await withinOneUtcDay(120_000); // the operators' /report counts every test's orders
  shop = await startShop({ replicas: 1 });
  owner = person("Olga", "en", OWNER_ID);
  operators = shop.kit.createGroup({ title: "Shop operators", creator: owner });
  await (await owner.send("/bind", { in: operators })).handled();
  await operators.waitForMessage(/operator group/);
}, 240_000);
afterAll(() => shop?.stop());

const names = new Map<number, string>();
/** How the transcript calls a person. */
const nameOf = (user: SimulatedUser): string => names.get(user.id) ?? String(user.id);
function person(firstName: string, languageCode: string, id?: number): SimulatedUser {
  const user = shop.kit.createUser({ firstName, languageCode, ...(id ? { id } : {}) });
  names.set(user.id, firstName);
  return user;
}

/** The label of a button on the bot's latest message in `user`'s chat that matches `pattern`. */
function label(user: SimulatedUser, pattern: RegExp, where?: SimulatedGroup): string {
  const messages = (where ? shop.kit.chat(where) : shop.kit.chat(user)).botMessages;
  for (const message of [...messages].reverse()) {
    const found = (message.reply_markup?.inline_keyboard ?? [])
      .flat()
      .find((b) => pattern.test(b.text));
    if (found) return found.text;
  }
  throw new Error(`no button matching ${pattern}`);
}

/** Presses a button (found by pattern) as `who`, recording the press and the bot's answer. */
async function press(
  t: Transcript,
  user: SimulatedUser,
  pattern: RegExp,
  options: { in?: SimulatedGroup; messageId?: number } = {},
) {
  const text = label(user, pattern, options.in);
  return t.act(nameOf(user), `presses [${text}]`, () => user.press(text, options));
}

const say = (
  t: Transcript,
  user: SimulatedUser,
  text: string,
  options: { in?: SimulatedGroup; replyTo?: number } = {},
) =>
  t.act(
    nameOf(user),
    `writes “${text}”${options.replyTo ? ` (a reply to message ${options.replyTo})` : ""}`,
    () => user.send(text, options),
  );

function expectTranscript(t: Transcript, file: string): void {
  const { expected, actual, path } = t.check(file);
  if (expected === null)
    throw new Error(
      `${path} is missing: UPDATE_TRANSCRIPTS=1 npm test -- tests/e2e/transcripts.test.ts`,
    );
  expect(actual, `the conversation changed: review it, then UPDATE_TRANSCRIPTS=1 (${path})`).toBe(
    expected,
  );
}

async function nameOrders(t: Transcript): Promise<void> {
  const orders = await shop.db.order.findMany({
    orderBy: { id: "asc" },
    select: { publicId: true },
  });
  for (const o of orders) t.name(o.publicId, "ORDER");
}

/** A customer's journey in their language, `words` being what they read and press. */
async function customerJourney(
  t: Transcript,
  customer: SimulatedUser,
  words: { question: string; answer: string },
): Promise<void> {
  t.follow(customer, nameOf(customer));
  await say(t, customer, "/start");
  await press(t, customer, /^🛍/);
  await press(t, customer, /[(（]\d+[)）]$/);
  await press(t, customer, /[(（]\d+[)）]$/);
  await press(t, customer, /^[^◀▶]/);
  await press(t, customer, /^🛒 .*\d/);
  await press(t, customer, /^🛒 .*[(（]\d+[)）]$/);
  await press(t, customer, /^✅/);
  await nameOrders(t);
  await press(t, customer, /^(Pay|支付) /);
  const invoice = shop.kit.chat(customer).botMessages.findLast((m: TgMessage) => m.invoice);
  await t.act(
    nameOf(customer),
    "pays the invoice",
    () => customer.pay({ invoice }),
    () => customer.waitForMessage(/^(Payment received|已收到付款)/, { after: undefined }),
  );
  await press(t, customer, /^📦/);
  await press(t, customer, /^[2-9A-Z]{8} · /);
  await say(t, customer, words.question);
  await press(t, customer, /^✉️ (Ask the shop|转给商店)$/);
  t.follow(operators, "the operator group");
  await shop.relayOutbox();
  t.flush();
  const alert = shop.kit
    .chat(operators)
    .botMessages.findLast((m) => /^(Question|顾客问题) #/.test(m.text ?? ""));
  const request = await shop.db.supportRequest.findFirstOrThrow({
    where: { userId: BigInt(customer.id) },
  });
  t.name(`#${request.id}`, "#Q");
  await say(t, owner, words.answer, { in: operators, replyTo: alert!.message_id });
  await shop.relayOutbox();
  t.flush();
}

/** A transcript of the shop's chats, its subtitle `who` plus where it comes from. */
const transcript = (title: string, who: string) =>
  new Transcript(shop.kit, title, `${who} Generated by tests/e2e/transcripts.test.ts.`);

describe("golden transcripts", () => {
  it("a customer in English: menu, catalog, cart, checkout, pay, my orders, a question", async () => {
    const t = transcript("A customer, in English", "Ann's Telegram speaks English.");
    const ann = person("Ann", "en");
    await customerJourney(t, ann, {
      question: "hi, do you ship to Berlin?",
      answer: "Yes: 3-5 days, 5 ⭐.",
    });
    expectTranscript(t, "customer-en.md");
  }, 120_000);

  it("a customer in Chinese, the same way", async () => {
    const t = transcript("A customer, in Chinese", "Li's Telegram speaks Chinese (zh-hans).");
    const li = person("Li", "zh-hans");
    await customerJourney(t, li, { question: "可以寄到上海吗？", answer: "可以，三天内送达。" });
    expectTranscript(t, "customer-zh.md");
  }, 120_000);

  it("the operators: help, orders, an order, stock and prices, a refund, the report", async () => {
    const t = transcript("The operator group", "Olga owns the shop; the group is bound.");
    t.follow(operators, "the operator group");
    // A customer's paid order (placed and paid through the shop's services, not the chat).
    const bo = person("Bo", "en");
    const placed = await shop.shop.orders.placeOrder({
      userId: bo.id,
      chatId: bo.id,
      items: [{ sku: "FAN-SILK", quantity: 2 }],
      idempotencyKey: "transcripts:operators",
    });
    if (placed.status !== "ok") throw new Error(`placeOrder: ${placed.status}`);
    const paid = { publicId: placed.order.id };
    await shop.shop.payments.confirmPayment({
      orderId: placed.order.id,
      userId: bo.id,
      telegramChargeId: "transcripts-charge",
      providerChargeId: null,
      amount: placed.order.totalMinor,
      currency: placed.order.currency,
    });
    await nameOrders(t);
    await shop.relayOutbox();
    for (const command of [
      "/help",
      "/orders",
      "/orders nonsense",
      `/order ${paid.publicId}`,
      "/stock tea-longjing +5",
      "/stock TEA-LONGJNG +5",
      "/price CUP-CELADON 18.50",
      `/refund ${paid.publicId}`,
      `/refund ${paid.publicId}`,
      "/report",
      "/settings",
    ])
      await say(t, owner, command, { in: operators });
    expectTranscript(t, "operators.md");
  }, 120_000);
});
