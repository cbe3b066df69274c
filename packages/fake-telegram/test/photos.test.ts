// Acceptance: sendPhoto, editMessageCaption and editMessageMedia hold the bot to Telegram's rules
// (caption length, what a photo can be sent from, what can be edited into what).
import { Api, InputFile } from "grammy";
import { describe, expect, it } from "vitest";
import {
  type FakeTelegram,
  type SimulatedUser,
  startFakeTelegram,
  TelegramErrors,
  type TgMessage,
} from "../src/index.ts";
import { failure, rawCall, type RawResponse } from "./support/raw.ts";
import { useTelegramWithAnn } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
useTelegramWithAnn({}, (opened) => ({ tg, ann } = opened));

const URL_A = "https://example.com/a.jpg";
const URL_B = "https://example.com/b.jpg";

const message = (response: RawResponse): TgMessage => {
  expect(response.body.description).toBeUndefined();
  return response.body.result as TgMessage;
};
const sendPhoto = (params: Record<string, unknown>) =>
  rawCall(tg, "sendPhoto", { chat_id: ann.chatId, photo: URL_A, ...params });
const sendText = async (text = "a text card") =>
  message(await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text }));
const shown = (messageId: number): TgMessage | undefined =>
  tg.chat(ann).messages.find((m) => m.message_id === messageId);

describe("sendPhoto", () => {
  it("sends a photo from an HTTP URL with its sizes, file_ids and caption", async () => {
    const sent = message(await sendPhoto({ caption: "<b>Tea</b> 5 ⭐", parse_mode: "HTML" }));
    expect(sent.photo?.length).toBeGreaterThan(1);
    expect(sent.photo?.at(-1)?.width).toBeGreaterThan(sent.photo?.[0]?.width ?? 0);
    expect(sent.caption).toBe("Tea 5 ⭐");
    expect(sent.caption_entities).toEqual([{ type: "bold", offset: 0, length: 3 }]);
    expect(sent.text).toBeUndefined();
    expect(tg.chat(ann).lastBotMessage?.caption).toBe("Tea 5 ⭐");
  });

  it("sends it again by any file_id Telegram issued, and refuses ids it never issued", async () => {
    const first = message(await sendPhoto({}));
    const fileId = first.photo![0]!.file_id;
    const again = message(await sendPhoto({ photo: fileId }));
    expect(again.photo?.at(-1)?.file_unique_id).toBe(first.photo?.at(-1)?.file_unique_id);
    expect(failure(await sendPhoto({ photo: "AgACAgIAAxkBAAIBnotissuedbytelegram" }))).toBe(
      `400 400 ${TelegramErrors.WRONG_FILE_ID}`,
    );
    expect(failure(await sendPhoto({ photo: "ftp://example.com/a.jpg" }))).toBe(
      `400 400 ${TelegramErrors.WRONG_FILE_ID}`,
    );
  });

  it("takes the file_id of a photo a user sent", async () => {
    const { message: fromAnn } = await ann.sendPhoto({ caption: "look" });
    const sent = message(await sendPhoto({ photo: fromAnn.photo!.at(-1)!.file_id }));
    expect(sent.photo?.at(-1)?.file_unique_id).toBe(fromAnn.photo?.at(-1)?.file_unique_id);
  });

  it("needs a photo, and one Telegram can fetch", async () => {
    expect(failure(await sendPhoto({ photo: "" }))).toBe(`400 400 ${TelegramErrors.NO_PHOTO}`);
    expect(failure(await sendPhoto({ photo: "https://images.invalid/a.jpg" }))).toBe(
      `400 400 ${TelegramErrors.URL_NOT_FETCHED}`,
    );
    expect(tg.chat(ann).botMessages).toEqual([]);
  });

  it("accepts an uploaded photo (multipart)", async () => {
    const form = new FormData();
    form.append("chat_id", String(ann.chatId));
    form.append("photo", new Blob([new Uint8Array([0xff, 0xd8, 0xff])]), "tea.jpg");
    const response = await fetch(`${tg.url}/sendPhoto`, { method: "POST", body: form });
    const body = (await response.json()) as { ok: boolean; result: TgMessage };
    expect(body.ok).toBe(true);
    expect(body.result.photo?.length).toBeGreaterThan(1);
  });

  it("accepts a file grammY uploads: attach:// and an unquoted filename, as Telegram does", async () => {
    const api = new Api(tg.token, { apiRoot: tg.apiRoot });
    const file = new InputFile(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), "cup.jpg");
    const sent = await api.sendPhoto(ann.chatId, file);
    expect(sent.photo.at(-1)?.file_id).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it("allows a caption of 0-1024 characters after entity parsing", async () => {
    expect(message(await sendPhoto({})).caption).toBeUndefined();
    expect(message(await sendPhoto({ caption: "c".repeat(1024) })).caption).toHaveLength(1024);
    const markup = `<b>${"c".repeat(1024)}</b>`;
    expect(message(await sendPhoto({ caption: markup, parse_mode: "HTML" })).caption).toHaveLength(
      1024,
    );
    const before = tg.chat(ann).botMessages.length;
    expect(failure(await sendPhoto({ caption: "c".repeat(1025) }))).toBe(
      `400 400 ${TelegramErrors.CAPTION_TOO_LONG}`,
    );
    expect(tg.chat(ann).botMessages).toHaveLength(before);
  });

  it("writes only where sendMessage may", async () => {
    const bob = tg.createUser({ firstName: "Bob" });
    expect(failure(await sendPhoto({ chat_id: bob.chatId }))).toBe(
      `403 403 ${TelegramErrors.CANT_INITIATE}`,
    );
  });
});

describe("editMessageCaption", () => {
  it("changes a photo's caption and keyboard; an empty caption removes it", async () => {
    const sent = message(await sendPhoto({ caption: "one" }));
    const keyboard = { inline_keyboard: [[{ text: "+", callback_data: "plus" }]] };
    const edited = message(
      await rawCall(tg, "editMessageCaption", {
        chat_id: ann.chatId,
        message_id: sent.message_id,
        caption: "two",
        reply_markup: keyboard,
      }),
    );
    expect(edited.caption).toBe("two");
    expect(edited.photo?.at(-1)?.file_unique_id).toBe(sent.photo?.at(-1)?.file_unique_id);
    expect(shown(sent.message_id)?.reply_markup).toEqual(keyboard);
    const cleared = message(
      await rawCall(tg, "editMessageCaption", { chat_id: ann.chatId, message_id: sent.message_id }),
    );
    expect(cleared.caption).toBeUndefined();
    expect(cleared.reply_markup).toBeUndefined();
  });

  it("refuses a text message, an over-long caption and an edit that changes nothing", async () => {
    const text = await sendText();
    expect(
      failure(
        await rawCall(tg, "editMessageCaption", {
          chat_id: ann.chatId,
          message_id: text.message_id,
          caption: "x",
        }),
      ),
    ).toBe(`400 400 ${TelegramErrors.NO_CAPTION_TO_EDIT}`);
    const photo = message(await sendPhoto({ caption: "same" }));
    const edit = (caption: string) =>
      rawCall(tg, "editMessageCaption", {
        chat_id: ann.chatId,
        message_id: photo.message_id,
        caption,
      });
    expect(failure(await edit("c".repeat(1025)))).toBe(
      `400 400 ${TelegramErrors.CAPTION_TOO_LONG}`,
    );
    expect(failure(await edit("same"))).toBe(`400 400 ${TelegramErrors.MESSAGE_NOT_MODIFIED}`);
    expect(shown(photo.message_id)?.caption).toBe("same");
    expect(shown(text.message_id)?.text).toBe("a text card");
  });
});

describe("editMessageMedia", () => {
  const editMedia = (messageId: number, media: unknown, extra: Record<string, unknown> = {}) =>
    rawCall(tg, "editMessageMedia", {
      chat_id: ann.chatId,
      message_id: messageId,
      media,
      ...extra,
    });

  it("replaces a photo with another one and its caption; no caption given, none kept", async () => {
    const sent = message(await sendPhoto({ caption: "tea" }));
    const edited = message(
      await editMedia(sent.message_id, { type: "photo", media: URL_B, caption: "coffee" }),
    );
    expect(edited.photo?.at(-1)?.file_unique_id).not.toBe(sent.photo?.at(-1)?.file_unique_id);
    expect(edited.caption).toBe("coffee");
    const bare = message(await editMedia(sent.message_id, { type: "photo", media: URL_A }));
    expect(bare.caption).toBeUndefined();
    expect(bare.photo?.at(-1)?.file_unique_id).toBe(sent.photo?.at(-1)?.file_unique_id);
  });

  it("cannot turn a text message into a photo", async () => {
    const text = await sendText();
    expect(failure(await editMedia(text.message_id, { type: "photo", media: URL_A }))).toBe(
      `400 400 ${TelegramErrors.NO_MEDIA_TO_EDIT}`,
    );
    expect(shown(text.message_id)?.text).toBe("a text card");
    expect(shown(text.message_id)?.photo).toBeUndefined();
  });

  it("refuses the same photo, caption and keyboard, a bad InputMedia and a long caption", async () => {
    const sent = message(await sendPhoto({ caption: "tea" }));
    expect(
      failure(await editMedia(sent.message_id, { type: "photo", media: URL_A, caption: "tea" })),
    ).toBe(`400 400 ${TelegramErrors.MESSAGE_NOT_MODIFIED}`);
    expect(failure(await editMedia(sent.message_id, "{not json"))).toBe(
      `400 400 ${TelegramErrors.INPUT_MEDIA_UNPARSABLE}`,
    );
    expect(failure(await editMedia(sent.message_id, { type: "sticker", media: URL_B }))).toBe(
      `400 400 ${TelegramErrors.INPUT_MEDIA_UNPARSABLE}`,
    );
    expect(
      failure(
        await editMedia(sent.message_id, {
          type: "photo",
          media: URL_B,
          caption: "c".repeat(1025),
        }),
      ),
    ).toBe(`400 400 ${TelegramErrors.CAPTION_TOO_LONG}`);
    expect(failure(await editMedia(sent.message_id, { type: "photo", media: "nope" }))).toBe(
      `400 400 ${TelegramErrors.WRONG_FILE_ID}`,
    );
    expect(shown(sent.message_id)?.caption).toBe("tea");
  });
});

describe("a photo is not a text", () => {
  it("has no text for editMessageText, and keeps its photo when only the keyboard changes", async () => {
    const sent = message(await sendPhoto({ caption: "tea" }));
    expect(
      failure(
        await rawCall(tg, "editMessageText", {
          chat_id: ann.chatId,
          message_id: sent.message_id,
          text: "now text",
        }),
      ),
    ).toBe(`400 400 ${TelegramErrors.NO_TEXT_TO_EDIT}`);
    const keyboard = { inline_keyboard: [[{ text: "Back", callback_data: "back" }]] };
    const edited = message(
      await rawCall(tg, "editMessageReplyMarkup", {
        chat_id: ann.chatId,
        message_id: sent.message_id,
        reply_markup: keyboard,
      }),
    );
    expect(edited.caption).toBe("tea");
    expect(edited.photo).toEqual(sent.photo);
    expect(edited.reply_markup).toEqual(keyboard);
  });

  it("is matched by its caption when waiting for a message", async () => {
    const waiting = tg.waitForMessage(ann, "green tea");
    await sendPhoto({ caption: "green tea, 5 ⭐" });
    expect((await waiting).photo).toBeDefined();
  });
});

describe("users send photos", () => {
  it("with a command in the caption as an entity; privacy mode shows the bot only commands", async () => {
    const bob = tg.createUser({ firstName: "Bob" });
    const group = tg.createGroup({ title: "Ops", creator: bob, bot: "member" });
    const command = await bob.sendPhoto({ in: group, caption: "/photo TEA-1" });
    expect(command.message.caption_entities).toEqual([
      { type: "bot_command", offset: 0, length: 6 },
    ]);
    expect(command.updateId).toBeGreaterThan(0);
    const chatter = await bob.sendPhoto({ in: group, caption: "my cat" });
    expect(chatter.updateId).toBe(0);
    const bare = await bob.sendPhoto({ in: group });
    expect(bare.updateId).toBe(0);
  });
});

describe("the control API", () => {
  it("lets a script send a user's photo with a caption", async () => {
    const local = await startFakeTelegram({ controlApi: true });
    try {
      const bob = local.createUser({ firstName: "Bob" });
      const response = await fetch(`${local.apiRoot}/_kit/users/${bob.id}/photo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ caption: "/photo TEA" }),
      });
      const body = (await response.json()) as { updateId: number; message: TgMessage };
      expect(body.updateId).toBeGreaterThan(0);
      expect(body.message.caption).toBe("/photo TEA");
      expect(local.chat(bob).messages.at(-1)?.photo).toHaveLength(3);
    } finally {
      await local.close();
    }
  });
});
