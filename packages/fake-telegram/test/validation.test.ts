// Acceptance: each rule rejects what Telegram rejects, with Telegram's code and description.
import { describe, expect, it, vi } from "vitest";
import {
  type FakeTelegram,
  type SimulatedUser,
  startFakeTelegram,
  TelegramErrors,
} from "../src/index.ts";
import { failure, rawCall } from "./support/raw.ts";
import { starsInvoice } from "./support/invoice.ts";
import { useTelegramWithAnn } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
useTelegramWithAnn({}, (opened) => ({ tg, ann } = opened));

const keyboard = (callback_data: string): unknown => ({
  inline_keyboard: [[{ text: "Go", callback_data }]],
});
/** Ann is sent `text` with one button carrying `callback_data`. */
const sendWithButton = (callback_data: string, text = "x") =>
  rawCall(tg, "sendMessage", { chat_id: ann.chatId, text, reply_markup: keyboard(callback_data) });
const stars = (extra: Record<string, unknown> = {}) => starsInvoice(ann, extra);

describe("callback_data is 1-64 bytes", () => {
  it("rejects 65 bytes with BUTTON_DATA_INVALID and accepts 64", async () => {
    const tooLong = await sendWithButton("a".repeat(65));
    expect(failure(tooLong)).toBe(`400 400 ${TelegramErrors.BUTTON_DATA_INVALID}`);
    expect(tooLong.body.description).toBe("Bad Request: BUTTON_DATA_INVALID");
    const fits = await sendWithButton("a".repeat(64));
    expect(fits.body.ok).toBe(true);
  });

  it("counts bytes, not characters", async () => {
    const bytes66 = await sendWithButton("é".repeat(33));
    expect(bytes66.body.description).toBe(TelegramErrors.BUTTON_DATA_INVALID);
    const bytes64 = await sendWithButton("é".repeat(32));
    expect(bytes64.body.ok).toBe(true);
  });

  it("treats empty callback_data as a button with no action", async () => {
    const empty = await sendWithButton("");
    expect(failure(empty)).toBe(`400 400 ${TelegramErrors.TEXT_BUTTONS_UNALLOWED}`);
  });

  it("checks keyboards on edits too", async () => {
    const sent = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "x" });
    const messageId = (sent.body.result as { message_id: number }).message_id;
    const edit = await rawCall(tg, "editMessageReplyMarkup", {
      chat_id: ann.chatId,
      message_id: messageId,
      reply_markup: keyboard("b".repeat(65)),
    });
    expect(edit.body.description).toBe(TelegramErrors.BUTTON_DATA_INVALID);
  });
});

describe("text length", () => {
  it("rejects empty and whitespace-only text", async () => {
    for (const text of ["", "   \n "]) {
      const response = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text });
      expect(failure(response)).toBe("400 400 Bad Request: message text is empty");
    }
    const missing = await rawCall(tg, "sendMessage", { chat_id: ann.chatId });
    expect(missing.body.description).toBe(TelegramErrors.MESSAGE_TEXT_EMPTY);
  });

  it("allows 4096 characters after entity parsing and rejects 4097", async () => {
    const max = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "a".repeat(4096) });
    expect(max.body.ok).toBe(true);
    const over = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "a".repeat(4097) });
    expect(failure(over)).toBe("400 400 Bad Request: message is too long");
    const markup = await rawCall(tg, "sendMessage", {
      chat_id: ann.chatId,
      text: `<b>${"a".repeat(4096)}</b>`,
      parse_mode: "HTML",
    });
    expect(markup.body.ok).toBe(true);
  });

  it("applies the same limit to an edit, and leaves the message as it was", async () => {
    const sent = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "short" });
    const messageId = (sent.body.result as { message_id: number }).message_id;
    const edit = (text: string) =>
      rawCall(tg, "editMessageText", { chat_id: ann.chatId, message_id: messageId, text });
    expect(failure(await edit("b".repeat(4097)))).toBe("400 400 Bad Request: message is too long");
    expect(ann.lastMessage()?.text).toBe("short");
    expect((await edit("b".repeat(4096))).body.ok).toBe(true);
  });

  it("reports markup it cannot parse", async () => {
    const html = await rawCall(tg, "sendMessage", {
      chat_id: ann.chatId,
      text: "<b>bold",
      parse_mode: "HTML",
    });
    expect(html.body.description).toBe(
      `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
    );
    const v2 = await rawCall(tg, "sendMessage", {
      chat_id: ann.chatId,
      text: "Total: 5.00",
      parse_mode: "MarkdownV2",
    });
    expect(v2.body.description).toBe(
      "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
    );
  });
});

describe("one answer per callback query, while it is fresh", () => {
  it("answers once; a second answer, an unknown id or a late answer is 'query is too old'", async () => {
    await sendWithButton("pick", "Pick");
    const first = await ann.pressData("pick");
    const ok = await rawCall(tg, "answerCallbackQuery", {
      callback_query_id: first.callbackQueryId,
      text: "Done",
    });
    expect(ok.body).toEqual({ ok: true, result: true });
    expect(await first.answered()).toMatchObject({ text: "Done" });
    const again = await rawCall(tg, "answerCallbackQuery", {
      callback_query_id: first.callbackQueryId,
    });
    expect(failure(again)).toBe(`400 400 ${TelegramErrors.QUERY_TOO_OLD}`);
    const unknown = await rawCall(tg, "answerCallbackQuery", { callback_query_id: "123" });
    expect(unknown.body.description).toBe(
      "Bad Request: query is too old and response timeout expired or query ID is invalid",
    );
  });

  it("refuses an answer that comes after the query's timeout", async () => {
    const quick = await startFakeTelegram({ callbackQueryTimeoutMs: 100 });
    try {
      const bo = quick.createUser({ firstName: "Bo" });
      await bo.send("/start");
      await rawCall(quick, "sendMessage", {
        chat_id: bo.chatId,
        text: "Pick",
        reply_markup: keyboard("pick"),
      });
      const press = await bo.pressData("pick");
      await new Promise((resolve) => setTimeout(resolve, 150));
      const late = await rawCall(quick, "answerCallbackQuery", {
        callback_query_id: press.callbackQueryId,
      });
      expect(late.body.description).toBe(TelegramErrors.QUERY_TOO_OLD);
    } finally {
      await quick.close();
    }
  });

  it("limits the answer text to 200 characters", async () => {
    await sendWithButton("pick", "Pick");
    const press = await ann.pressData("pick");
    const long = await rawCall(tg, "answerCallbackQuery", {
      callback_query_id: press.callbackQueryId,
      text: "x".repeat(201),
    });
    expect(long.body.description).toBe("Bad Request: MESSAGE_TOO_LONG");
  });
});

describe("payments", () => {
  it("fails a payment whose pre-checkout is not answered in time, and refuses the late answer", async () => {
    const quick = await startFakeTelegram({ preCheckoutTimeoutMs: 100 });
    try {
      const bo = quick.createUser({ firstName: "Bo" });
      await bo.send("/start");
      await rawCall(quick, "sendInvoice", { ...stars(), chat_id: bo.chatId });
      const payment = await bo.pay();
      expect(payment.status).toBe("timeout");
      const late = await rawCall(quick, "answerPreCheckoutQuery", {
        pre_checkout_query_id: payment.preCheckoutQueryId,
        ok: true,
      });
      expect(failure(late)).toBe(`400 400 ${TelegramErrors.QUERY_TOO_OLD}`);
      expect(quick.charges).toEqual([]);
      expect(quick.chat(bo).messages.some((m) => m.successful_payment)).toBe(false);
    } finally {
      await quick.close();
    }
  });

  it("requires an error_message when declining", async () => {
    await rawCall(tg, "sendInvoice", stars());
    const paying = ann.pay();
    const id = await waitForPreCheckout(tg);
    const noReason = await rawCall(tg, "answerPreCheckoutQuery", {
      pre_checkout_query_id: id,
      ok: false,
    });
    expect(noReason.body.description).toBe('Bad Request: parameter "error_message" is required');
    await rawCall(tg, "answerPreCheckoutQuery", {
      pre_checkout_query_id: id,
      ok: false,
      error_message: "Sold out",
    });
    expect(await paying).toMatchObject({ status: "declined", errorMessage: "Sold out" });
  });

  it("takes invoice payloads of 1-128 bytes", async () => {
    expect((await rawCall(tg, "sendInvoice", stars({ payload: "p".repeat(128) }))).body.ok).toBe(
      true,
    );
    const over = await rawCall(tg, "sendInvoice", stars({ payload: "p".repeat(129) }));
    expect(failure(over)).toBe(`400 400 ${TelegramErrors.INVOICE_PAYLOAD_INVALID}`);
    const empty = await rawCall(tg, "sendInvoice", stars({ payload: "" }));
    expect(empty.body.description).toBe('Bad Request: parameter "payload" is required');
  });

  it("takes Stars invoices only with exactly one price and an empty provider token", async () => {
    const twoPrices = await rawCall(
      tg,
      "sendInvoice",
      stars({
        prices: [
          { label: "A", amount: 1 },
          { label: "B", amount: 2 },
        ],
      }),
    );
    expect(failure(twoPrices)).toBe(`400 400 ${TelegramErrors.STARS_INVOICE_INVALID}`);
    const withToken = await rawCall(
      tg,
      "sendInvoice",
      stars({ provider_token: "284685063:TEST:abc" }),
    );
    expect(withToken.body.description).toBe(TelegramErrors.STARS_INVOICE_INVALID);
    const noPrices = await rawCall(tg, "sendInvoice", stars({ prices: [] }));
    expect(noPrices.body.description).toBe(TelegramErrors.NO_PRICES);
    const fiatWithoutProvider = await rawCall(tg, "sendInvoice", stars({ currency: "EUR" }));
    expect(fiatWithoutProvider.body.description).toBe(TelegramErrors.PAYMENT_PROVIDER_INVALID);
  });

  it("refunds a Stars charge once", async () => {
    await rawCall(tg, "sendInvoice", stars());
    const paying = ann.pay();
    const update = await waitForPreCheckout(tg);
    await rawCall(tg, "answerPreCheckoutQuery", { pre_checkout_query_id: update, ok: true });
    const paid = await paying;
    if (paid.status !== "paid") throw new Error(`expected a payment, got ${paid.status}`);
    const refund = await rawCall(tg, "refundStarPayment", {
      user_id: ann.id,
      telegram_payment_charge_id: paid.chargeId,
    });
    expect(refund.body).toEqual({ ok: true, result: true });
    const twice = await rawCall(tg, "refundStarPayment", {
      user_id: ann.id,
      telegram_payment_charge_id: paid.chargeId,
    });
    expect(failure(twice)).toBe("400 400 Bad Request: CHARGE_ALREADY_REFUNDED");
    const unknown = await rawCall(tg, "refundStarPayment", {
      user_id: ann.id,
      telegram_payment_charge_id: "stxNope",
    });
    expect(unknown.body.description).toBe(TelegramErrors.CHARGE_ID_INVALID);
    expect(tg.charges[0]?.refundedAt).toBeDefined();
    expect(tg.deliveries.at(-1)?.update.message?.refunded_payment?.telegram_payment_charge_id).toBe(
      paid.chargeId,
    );
  });
});

describe("an edit must change something", () => {
  it("rejects an edit with the same text and keyboard, accepts a keyboard change", async () => {
    const sent = await rawCall(tg, "sendMessage", {
      chat_id: ann.chatId,
      text: "Order #1",
      reply_markup: keyboard("pay"),
    });
    const messageId = (sent.body.result as { message_id: number }).message_id;
    const same = await rawCall(tg, "editMessageText", {
      chat_id: ann.chatId,
      message_id: messageId,
      text: "Order #1",
      reply_markup: keyboard("pay"),
    });
    expect(failure(same)).toBe(`400 400 ${TelegramErrors.MESSAGE_NOT_MODIFIED}`);
    const sameMarkup = await rawCall(tg, "editMessageReplyMarkup", {
      chat_id: ann.chatId,
      message_id: messageId,
      reply_markup: keyboard("pay"),
    });
    expect(sameMarkup.body.description).toBe(
      "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
    const newMarkup = await rawCall(tg, "editMessageReplyMarkup", {
      chat_id: ann.chatId,
      message_id: messageId,
    });
    expect(newMarkup.body.ok).toBe(true);
    expect(tg.chat(ann).lastBotMessage?.reply_markup).toBeUndefined();
    const missing = await rawCall(tg, "editMessageText", {
      chat_id: ann.chatId,
      message_id: 999,
      text: "x",
    });
    expect(missing.body.description).toBe(TelegramErrors.MESSAGE_TO_EDIT_NOT_FOUND);
    const notBots = await rawCall(tg, "editMessageText", {
      chat_id: ann.chatId,
      message_id: 1,
      text: "x",
    });
    expect(notBots.body.description).toBe(TelegramErrors.MESSAGE_CANT_BE_EDITED);
  });
});

describe("the API around the methods", () => {
  it("answers 404 Not Found to an unknown method and 401 Unauthorized to a wrong token", async () => {
    expect(failure(await rawCall(tg, "sendTelepathy"))).toBe("404 404 Not Found");
    expect(failure(await rawCall(tg, "getMe", {}, { token: "1:wrong" }))).toBe(
      "401 401 Unauthorized",
    );
    expect((await rawCall(tg, "GETME")).body.ok).toBe(true);
  });

  it("accepts JSON, urlencoded, multipart and query-string arguments, reply_markup as a JSON string", async () => {
    for (const encoding of ["json", "form", "multipart", "query"] as const) {
      const response = await rawCall(
        tg,
        "sendMessage",
        { chat_id: ann.chatId, text: `via ${encoding}`, reply_markup: keyboard(`d:${encoding}`) },
        { encoding },
      );
      expect(response.body.ok, encoding).toBe(true);
    }
    expect(tg.chat(ann).buttons).toHaveLength(4);
    const broken = await rawCall(
      tg,
      "sendMessage",
      { chat_id: ann.chatId, text: "x", reply_markup: "{not json" },
      { encoding: "form" },
    );
    expect(broken.body.description).toBe(TelegramErrors.REPLY_MARKUP_UNPARSABLE);
    expect(tg.callsTo("sendMessage").at(-1)?.params).toMatchObject({
      chat_id: ann.chatId,
      text: "x",
    });
  });

  it("knows which chats exist and who may be written to", async () => {
    expect((await rawCall(tg, "sendMessage", { text: "x" })).body.description).toBe(
      TelegramErrors.CHAT_ID_EMPTY,
    );
    expect((await rawCall(tg, "sendMessage", { chat_id: 42, text: "x" })).body.description).toBe(
      TelegramErrors.CHAT_NOT_FOUND,
    );
    const stranger = tg.createUser({ firstName: "Bo" });
    expect(
      failure(await rawCall(tg, "sendMessage", { chat_id: stranger.chatId, text: "hi" })),
    ).toBe(`403 403 ${TelegramErrors.CANT_INITIATE}`);
    await ann.block();
    expect(failure(await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "hi" }))).toBe(
      "403 403 Forbidden: bot was blocked by the user",
    );
    expect(tg.deliveries.at(-1)?.update.my_chat_member?.new_chat_member.status).toBe("kicked");
  });

  it("deletes a bot's message only within 48 hours of sending it, as Telegram does", async () => {
    const send = async () =>
      (await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "invoice" })).body.result as {
        message_id: number;
      };
    const fresh = await send();
    const old = await send();
    const sentAt = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(sentAt + 48 * 3_600_000 - 60_000);
    try {
      expect(
        (await rawCall(tg, "deleteMessage", { chat_id: ann.chatId, message_id: fresh.message_id }))
          .body.ok,
      ).toBe(true);
      clock.mockReturnValue(sentAt + 48 * 3_600_000 + 1_000);
      expect(
        failure(
          await rawCall(tg, "deleteMessage", { chat_id: ann.chatId, message_id: old.message_id }),
        ),
      ).toBe("400 400 Bad Request: message can't be deleted for everyone");
    } finally {
      clock.mockRestore();
    }
  });

  it("checks deleteMessage and sendChatAction arguments", async () => {
    expect(
      (await rawCall(tg, "deleteMessage", { chat_id: ann.chatId, message_id: 77 })).body
        .description,
    ).toBe(TelegramErrors.MESSAGE_TO_DELETE_NOT_FOUND);
    expect(
      (await rawCall(tg, "sendChatAction", { chat_id: ann.chatId, action: "dancing" })).body
        .description,
    ).toBe(TelegramErrors.WRONG_CHAT_ACTION);
    expect(
      (await rawCall(tg, "sendChatAction", { chat_id: ann.chatId, action: "typing" })).body.ok,
    ).toBe(true);
  });
});

async function waitForPreCheckout(kit: FakeTelegram): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const id = kit.pendingUpdates.find((u) => u.type === "pre_checkout_query")?.update
      .pre_checkout_query?.id;
    if (id) return id;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("no pre_checkout_query");
}
