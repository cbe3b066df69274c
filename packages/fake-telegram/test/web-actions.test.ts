// What a person does through the web client, over the control API: reply to a message, attach a
// document, wait for a button's answer, pay a provider invoice with the form's details. Each goes
// through the simulated user's own flow, so the bot gets the updates Telegram would send.
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser, TgMessage } from "../src/index.ts";
import { useTelegramWithAnn } from "./support/ann.ts";
import { control } from "./support/control.ts";
import { rawCall } from "./support/raw.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;

useTelegramWithAnn({ telegram: { controlApi: true } }, (opened) => ({ tg, ann } = opened));

const botSays = async (extra: Record<string, unknown> = {}): Promise<TgMessage> =>
  (await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "Tracking note?", ...extra })).body
    .result as TgMessage;

describe("replies and documents", () => {
  it("sends a reply to a message, which the bot sees as reply_to_message", async () => {
    const prompt = await botSays();
    const sent = await control(tg, "POST", `/_kit/users/${ann.id}/send`, {
      text: "DHL 0034",
      replyTo: prompt.message_id,
    });
    expect(sent.status).toBe(200);
    const update = tg.delivery(sent.body.updateId as number)!.update;
    expect(update.message?.reply_to_message?.message_id).toBe(prompt.message_id);
  });

  it("keeps a force_reply's prompt for the clients until it is answered", async () => {
    const prompt = await botSays({
      reply_markup: { force_reply: true, input_field_placeholder: "DHL 0034" },
    });
    expect(prompt.reply_markup).toBeUndefined();
    expect(tg.chat(ann).replyPrompt).toEqual({
      messageId: prompt.message_id,
      placeholder: "DHL 0034",
    });
    await ann.send("DHL 0034", { replyTo: prompt.message_id });
    expect(tg.chat(ann).replyPrompt).toBeUndefined();
  });

  it("aims a selective force_reply at the user replied to and those mentioned", async () => {
    const bob = tg.createUser({ firstName: "Bob", username: "bob_ops" });
    const cy = tg.createUser({ firstName: "Cy" });
    const group = tg.createGroup({ title: "Ops", creator: ann, members: [bob, cy] });
    const asked = await cy.send("/ship", { in: group });
    const prompt = (
      await rawCall(tg, "sendMessage", {
        chat_id: group.id,
        text: "Tracking note, @bob_ops?",
        reply_parameters: { message_id: asked.message.message_id },
        reply_markup: { force_reply: true, selective: true },
      })
    ).body.result as TgMessage;
    expect(tg.chat(group).replyPrompt).toEqual({
      messageId: prompt.message_id,
      userIds: [cy.id, bob.id],
    });
  });

  it("attaches a document the bot can download", async () => {
    const sent = await control(tg, "POST", `/_kit/users/${ann.id}/document`, {
      fileName: "codes.txt",
      content: Buffer.from("GIFT-1\nGIFT-2\n").toString("base64"),
      mimeType: "text/plain",
      caption: "/codes",
    });
    const message = sent.body.message as TgMessage;
    expect(message.caption_entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);
    const file = await rawCall(tg, "getFile", { file_id: message.document!.file_id });
    const path = (file.body.result as { file_path: string }).file_path;
    const download = await fetch(`${tg.apiRoot}/file/bot${tg.token}/${path}`);
    expect(await download.text()).toBe("GIFT-1\nGIFT-2\n");
  });

  it("refuses a document without a name, and sends nothing", async () => {
    const before = tg.chat(ann).messages.length;
    const refused = await control(tg, "POST", `/_kit/users/${ann.id}/document`, { content: "" });
    expect(refused).toEqual({
      status: 400,
      body: expect.objectContaining({ error: "a document needs a fileName" }),
    });
    expect(tg.chat(ann).messages.length).toBe(before);
  });

  it("refuses a text over 4096 characters, which Telegram's clients never send", async () => {
    const before = tg.chat(ann).messages.length;
    const send = (text: string) => control(tg, "POST", `/_kit/users/${ann.id}/send`, { text });
    expect(await send("茶".repeat(4097))).toEqual({
      status: 400,
      body: expect.objectContaining({ error: "a message holds at most 4096 characters" }),
    });
    expect(tg.chat(ann).messages.length).toBe(before);
    expect((await send("茶".repeat(4096))).status).toBe(200);
    expect(tg.chat(ann).messages.length).toBe(before + 1);
  });
});

describe("a button's answer", () => {
  it("comes back once the bot answers the callback query, with show_alert", async () => {
    const card = await botSays({
      reply_markup: { inline_keyboard: [[{ text: "Ship", callback_data: "ship:1" }]] },
    });
    const press = await control(tg, "POST", `/_kit/users/${ann.id}/press`, {
      data: "ship:1",
      messageId: card.message_id,
    });
    const id = press.body.callbackQueryId as string;
    const waiting = control(tg, "GET", `/_kit/callbacks/${id}/answer`);
    await rawCall(tg, "answerCallbackQuery", {
      callback_query_id: id,
      text: "Shipped",
      show_alert: true,
    });
    const { body } = await waiting;
    expect(body.answer).toEqual(expect.objectContaining({ text: "Shipped", showAlert: true }));
  });

  it("is an error for a query that never was", async () => {
    const missing = await control(tg, "GET", `/_kit/callbacks/123/answer`);
    expect(missing).toEqual({
      status: 400,
      body: expect.objectContaining({ error: "no callback query 123" }),
    });
  });
});

const PROVIDER_INVOICE = {
  title: "Tea set",
  description: "Shipped to you",
  payload: "order:7",
  provider_token: "284685063:TEST:demo",
  currency: "USD",
  prices: [{ label: "Tea set", amount: 4500 }],
  need_name: true,
  need_shipping_address: true,
};

async function approvePreCheckout(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const query = tg.pendingUpdates.find((u) => u.update.pre_checkout_query)?.update;
    if (query) {
      const id = query.pre_checkout_query!.id;
      await rawCall(tg, "answerPreCheckoutQuery", { pre_checkout_query_id: id, ok: true });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("no pre_checkout_query");
}

describe("the payment form", () => {
  it("pays a provider invoice with the buyer's name and address as typed", async () => {
    const sent = await rawCall(tg, "sendInvoice", { chat_id: ann.chatId, ...PROVIDER_INVOICE });
    const invoice = sent.body.result as TgMessage;
    expect(tg.chat(ann).invoices).toEqual([
      expect.objectContaining({ messageId: invoice.message_id, paid: false }),
    ]);
    const address = {
      country_code: "FR",
      city: "Paris",
      street_line1: "1 rue de Rivoli",
      post_code: "75001",
    };
    const paying = control(tg, "POST", `/_kit/users/${ann.id}/pay`, {
      messageId: invoice.message_id,
      buyer: { name: "Ann Lee", shippingAddress: address },
    });
    await approvePreCheckout();
    const { body } = await paying;
    expect(body.status).toBe("paid");
    const paid = (body.message as TgMessage).successful_payment!;
    expect(paid.order_info).toEqual({
      name: "Ann Lee",
      shipping_address: { ...address, state: "", street_line2: "" },
    });
    expect(tg.chat(ann).invoices[0]?.paid).toBe(true);
  });

  it("refuses an address without a city, and charges nothing", async () => {
    const sent = await rawCall(tg, "sendInvoice", { chat_id: ann.chatId, ...PROVIDER_INVOICE });
    const refused = await control(tg, "POST", `/_kit/users/${ann.id}/pay`, {
      messageId: (sent.body.result as TgMessage).message_id,
      buyer: {
        shippingAddress: { country_code: "FR", city: "", street_line1: "x", post_code: "1" },
      },
    });
    expect(refused).toEqual({
      status: 400,
      body: expect.objectContaining({ error: "an address needs a city, a street and a post code" }),
    });
    expect(tg.charges).toEqual([]);
    expect(tg.pendingUpdates.some((u) => u.update.pre_checkout_query)).toBe(false);
  });
});
