// Acceptance: injected 429s carry retry_after and a client that honours them (grammY's
// auto-retry) succeeds; 500s, latency and per-chat rules; reproducible rates.
import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, GrammyError } from "grammy";
import { describe, expect, it } from "vitest";
import { type FakeTelegram, type SimulatedUser, startFakeTelegram } from "../src/index.ts";
import { rawCall } from "./support/raw.ts";
import { useTelegramWithAnn } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
useTelegramWithAnn({}, (opened) => ({ tg, ann } = opened));

describe("429 Too Many Requests", () => {
  it("carries retry_after in parameters, as Telegram sends it", async () => {
    const rule = tg.faults.set({ method: "sendMessage", rate429: 1, retryAfter: 3, times: 2 });
    for (let i = 0; i < 2; i++) {
      const response = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "hi" });
      expect(response.status).toBe(429);
      expect(response.body).toEqual({
        ok: false,
        error_code: 429,
        description: "Too Many Requests: retry after 3",
        parameters: { retry_after: 3 },
      });
    }
    expect((await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "hi" })).body.ok).toBe(
      true,
    );
    expect(rule.injected).toBe(2);
    expect(tg.callsTo("sendMessage").map((c) => c.fault ?? "none")).toEqual(["429", "429", "none"]);
    expect(tg.chat(ann).botMessages).toHaveLength(1);
  });

  it("lets a grammY bot with auto-retry succeed after waiting retry_after", async () => {
    const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot }, botInfo: tg.botInfo });
    bot.api.config.use(autoRetry({ maxRetryAttempts: 3 }));
    tg.faults.set({ method: "sendMessage", rate429: 1, retryAfter: 1, times: 1 });
    const message = await bot.api.sendMessage(ann.chatId, "eventually");
    expect(message.text).toBe("eventually");
    const [limited, retried] = tg.callsTo("sendMessage");
    expect(limited?.fault).toBe("429");
    expect(retried?.ok).toBe(true);
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(950);
  });

  it("refuseNext refuses one call to one chat, with a retry_after no bot waits out", async () => {
    const bob = tg.createUser({ firstName: "Bob" });
    await bob.send("/start");
    const refused = tg.faults.refuseNext("sendMessage", ann.chatId);
    expect(
      (await rawCall(tg, "sendMessage", { chat_id: bob.chatId, text: "other chat" })).body.ok,
    ).toBe(true);
    const response = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "refused" });
    expect(response.status).toBe(429);
    expect(response.body.parameters).toEqual({ retry_after: 60 });
    expect(
      (await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "then fine" })).body.ok,
    ).toBe(true);
    expect(refused.injected).toBe(1);
    expect(tg.chat(ann).botMessages.map((m) => m.text)).toEqual(["then fine"]);
  });

  it("fails a client that does not retry, with the 429 as a GrammyError", async () => {
    const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot }, botInfo: tg.botInfo });
    tg.faults.set({ method: "sendMessage", rate429: 1, retryAfter: 7 });
    const error = await bot.api.sendMessage(ann.chatId, "no").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).parameters.retry_after).toBe(7);
  });
});

describe("other faults", () => {
  it("answers 500 Internal Server Error without running the method", async () => {
    tg.faults.set({ method: ["sendMessage", "editMessageText"], rate500: 1, times: 1 });
    const failed = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "lost" });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({
      ok: false,
      error_code: 500,
      description: "Internal Server Error",
    });
    expect(tg.chat(ann).botMessages).toHaveLength(0);
  });

  it("adds latency", async () => {
    tg.faults.set({ method: "getMe", latencyMs: 60 });
    await rawCall(tg, "getMe");
    expect(tg.callsTo("getMe")[0]!.durationMs).toBeGreaterThanOrEqual(55);
  });

  it("holds calls of a method at arrival until released, then lets every call through", async () => {
    const held = tg.faults.hold("sendMessage");
    let answered = false;
    const call = rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "late" }).then((r) => {
      answered = true;
      return r;
    });
    for (let i = 0; i < 100 && held.waiting === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(held.waiting).toBe(1);
    expect((await rawCall(tg, "getMe")).body.ok).toBe(true); // other methods pass
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    expect(tg.chat(ann).botMessages).toHaveLength(0); // not handled yet: no effect
    held.release();
    expect((await call).body.ok).toBe(true);
    expect(held.waiting).toBe(0);
    expect(tg.chat(ann).botMessages.map((m) => m.text)).toEqual(["late"]);
    expect((await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "now" })).body.ok).toBe(
      true,
    );
  });

  it("hangs a call without running it until the client gives up, or answers 502 once removed", async () => {
    const rule = tg.faults.set({ method: "sendMessage", hang: true, times: 2 });
    const url = `${tg.apiRoot}/bot${tg.token}/sendMessage`;
    const post = (text: string, signal?: AbortSignal) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chat_id: ann.chatId, text }),
        ...(signal ? { signal } : {}),
      });
    const client = new AbortController();
    const abandoned = post("abandoned", client.signal).catch((e: unknown) => e);
    for (let i = 0; i < 200 && rule.injected < 1; i++) await new Promise((r) => setTimeout(r, 5));
    expect(rule.injected).toBe(1);
    client.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    const stalled = post("stalled");
    for (let i = 0; i < 200 && rule.injected < 2; i++) await new Promise((r) => setTimeout(r, 5));
    rule.remove();
    expect((await stalled).status).toBe(502);
    expect((await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "now" })).body.ok).toBe(
      true,
    );
    expect(tg.chat(ann).botMessages.map((m) => m.text)).toEqual(["now"]);
    expect(tg.callsTo("sendMessage").map((c) => c.fault ?? "none")).toEqual([
      "hang",
      "hang",
      "none",
    ]);
  });

  it("runs a call and loses its answer: the client sees the connection close", async () => {
    const rule = tg.faults.set({ method: "sendMessage", loseAnswer: true, times: 1 });
    const lost = await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "sent" }).catch(
      (e: unknown) => e,
    );
    expect(lost).toBeInstanceOf(Error);
    expect(rule.injected).toBe(1);
    expect((await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "next" })).body.ok).toBe(
      true,
    );
    // Both took effect; only the first went unheard.
    expect(tg.chat(ann).botMessages.map((m) => m.text)).toEqual(["sent", "next"]);
    expect(tg.callsTo("sendMessage").map((c) => c.fault ?? "none")).toEqual(["lost", "none"]);
  });

  it("limits a rule to one chat", async () => {
    const bo = tg.createUser({ firstName: "Bo" });
    await bo.send("/start");
    tg.faults.set({ chatId: ann.chatId, rate500: 1 });
    expect((await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "x" })).status).toBe(500);
    expect((await rawCall(tg, "sendMessage", { chat_id: bo.chatId, text: "x" })).status).toBe(200);
    tg.faults.clear();
    expect((await rawCall(tg, "sendMessage", { chat_id: ann.chatId, text: "x" })).status).toBe(200);
  });

  it("draws rates from the seed, so a run can be replayed", async () => {
    const pattern = async (seed: number): Promise<string> => {
      const kit = await startFakeTelegram({ seed });
      kit.faults.set({ method: "getMe", rate500: 0.5 });
      const outcomes: string[] = [];
      for (let i = 0; i < 16; i++) outcomes.push((await kit.call("getMe")).ok ? "." : "x");
      await kit.close();
      return outcomes.join("");
    };
    const first = await pattern(7);
    expect(await pattern(7)).toBe(first);
    expect(first).toMatch(/x/);
    expect(first).toMatch(/\./);
  });
});
