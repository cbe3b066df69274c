// Recording and the helpers built on it: every call with its time, waiting for messages and
// calls, visible chat state, pacing counts and (opt-in) flood control.
import { describe, expect, it } from "vitest";
import {
  ButtonNotFoundError,
  type FakeTelegram,
  maxInWindow,
  type SimulatedUser,
  startFakeTelegram,
  WaitTimeoutError,
} from "../src/index.ts";
import { rawCall } from "./support/raw.ts";
import { useTelegramWithAnn } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
useTelegramWithAnn({ ann: { languageCode: "zh-hans" } }, (opened) => ({ tg, ann } = opened));

const send = (text: string, extra: Record<string, unknown> = {}): ReturnType<typeof rawCall> =>
  rawCall(tg, "sendMessage", { chat_id: ann.chatId, text, ...extra });

describe("the call log", () => {
  it("records each call with its time, arguments, chat and outcome", async () => {
    const before = Date.now();
    await send("hello");
    await send("");
    const [ok, failed] = tg.calls;
    expect(ok).toMatchObject({
      seq: 1,
      method: "sendMessage",
      chatId: ann.chatId,
      ok: true,
      via: "http",
    });
    expect(ok!.at).toBeGreaterThanOrEqual(before);
    expect(ok!.params).toEqual({ chat_id: ann.chatId, text: "hello" });
    expect(failed).toMatchObject({
      seq: 2,
      ok: false,
      errorCode: 400,
      description: "Bad Request: message text is empty",
    });
  });

  it("waits for a call that has not happened yet", async () => {
    const waiting = tg.waitForCall("sendMessage", (c) => c.params.text === "later");
    await send("sooner");
    await send("later");
    expect((await waiting).seq).toBe(2);
    await expect(
      tg.waitForCall("sendInvoice", undefined, { timeoutMs: 50 }),
    ).rejects.toBeInstanceOf(WaitTimeoutError);
  });
});

describe("waiting for messages and reading chats", () => {
  it("finds the bot's reply to the last user action, even if it came first", async () => {
    await send("Welcome");
    expect((await tg.waitForMessage(ann, "Welcome")).text).toBe("Welcome");
    await ann.send("again");
    const error = await tg
      .waitForMessage(ann, "Welcome", { timeoutMs: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    await send("Second");
    await expect(ann.waitForMessage(/Sec/)).resolves.toMatchObject({ text: "Second" });
  });

  it("shows messages with edits applied and deleted ones gone", async () => {
    const first = (
      await send("v1", { reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "a" }]] } })
    ).body.result as { message_id: number };
    const second = (await send("to delete")).body.result as { message_id: number };
    await rawCall(tg, "editMessageText", {
      chat_id: ann.chatId,
      message_id: first.message_id,
      text: "v2",
    });
    await rawCall(tg, "deleteMessage", { chat_id: ann.chatId, message_id: second.message_id });
    const view = tg.chat(ann);
    expect(view.botMessages.map((m) => m.text)).toEqual(["v2"]);
    expect(view.buttons).toEqual([]);
    expect(view.messages.map((m) => m.text)).toEqual(["/start", "v2"]);
    expect(view.history.map((e) => `${e.by}:${e.kind}`)).toEqual([
      "user:sent",
      "bot:sent",
      "bot:sent",
      "bot:edited",
      "bot:deleted",
    ]);
    expect(ann.lastMessage()?.text).toBe("v2");
  });

  it("fails loudly when a button is not there", async () => {
    await send("Pick", {
      reply_markup: { inline_keyboard: [[{ text: "Order", callback_data: "o:1" }]] },
    });
    const error = await ann.press("Pay").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ButtonNotFoundError);
    expect((error as Error).message).toContain('"Order"');
    await expect(ann.pressData("o:2")).rejects.toBeInstanceOf(ButtonNotFoundError);
    const forced = await ann.pressData("o:2", { force: true });
    expect(forced.update.callback_query?.data).toBe("o:2");
    expect((await ann.press("Order")).data).toBe("o:1");
    expect((await ann.press(/^Ord/)).update.callback_query?.message?.text).toBe("Pick");
  });

  it("shows the user's language to the bot", async () => {
    expect(tg.deliveries[0]?.update.message?.from?.language_code).toBe("zh-hans");
  });
});

describe("pacing", () => {
  it("counts sending calls per chat per second", async () => {
    const bo = tg.createUser({ firstName: "Bo" });
    await bo.send("/start");
    for (let i = 0; i < 5; i++) await send(`m${i}`);
    await rawCall(tg, "sendMessage", { chat_id: bo.chatId, text: "other chat" });
    await rawCall(tg, "sendChatAction", { chat_id: ann.chatId, action: "typing" });
    const pacing = tg.pacing(ann);
    expect(pacing.calls).toBe(5);
    expect(pacing.perSecond.reduce((sum, b) => sum + b.count, 0)).toBe(5);
    expect(pacing.maxPerMinute).toBe(5);
    expect(tg.pacing().calls).toBe(6);
    expect(tg.pacing(ann, { methods: [] }).calls).toBe(6);
    expect(tg.callsPerSecond(bo)).toHaveLength(1);
  });

  it("finds the busiest window", () => {
    expect(maxInWindow([0, 100, 900, 1000, 1050, 5000], 1_000)).toBe(4);
    expect(maxInWindow([0, 1000, 2000], 1_000)).toBe(1);
    expect(maxInWindow([], 1_000)).toBe(0);
  });

  it("answers 429 with retry_after when flood limits are on", async () => {
    const strict = await startFakeTelegram({
      floodLimits: { perChat: { limit: 2, windowMs: 60_000 } },
    });
    try {
      const bo = strict.createUser({ firstName: "Bo" });
      await bo.send("/start");
      const responses = [];
      for (let i = 0; i < 3; i++)
        responses.push(await rawCall(strict, "sendMessage", { chat_id: bo.chatId, text: `${i}` }));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 429]);
      const retryAfter = responses[2]!.body.parameters?.retry_after ?? 0;
      expect(retryAfter).toBeGreaterThan(50);
      expect(responses[2]!.body.description).toBe(`Too Many Requests: retry after ${retryAfter}`);
    } finally {
      await strict.close();
    }
  });
});
