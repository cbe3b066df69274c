// Acceptance: webhook delivery like Telegram's — re-delivery after a 500 with backoff until the
// attempt cap, one update per chat in flight while other chats proceed, max_connections, the
// secret header, timeouts, Retry-After, lost and duplicated deliveries, webhook replies.
import { afterEach, describe, expect, it } from "vitest";
import { type FakeTelegram, type FakeTelegramOptions, startFakeTelegram } from "../src/index.ts";
import { rawCall } from "./support/raw.ts";
import { gate, type Policy, type Receiver, startReceiver, until } from "./support/receiver.ts";

let tg: FakeTelegram;
let receiver: Receiver;

async function setUp(
  policy: Policy,
  options: FakeTelegramOptions = {},
  webhook: Record<string, unknown> = {},
): Promise<void> {
  tg = await startFakeTelegram({ webhook: { retryBaseMs: 40, ...options.webhook }, ...options });
  receiver = await startReceiver(policy);
  const set = await rawCall(tg, "setWebhook", {
    url: receiver.url,
    secret_token: "hook_secret-1",
    ...webhook,
  });
  expect(set.body).toEqual({ ok: true, result: true, description: "Webhook was set" });
}

afterEach(async () => {
  await tg?.close();
  await receiver?.close();
});

describe("re-delivery", () => {
  it("re-sends after a 500 with growing gaps and stops at the attempt cap", async () => {
    await setUp(() => ({ status: 500 }), { webhook: { retryBaseMs: 40, maxAttempts: 5 } });
    const ann = tg.createUser({ firstName: "Ann" });
    const sent = await ann.send("hello");
    const outcome = await sent.handled();
    expect(outcome.status).toBe("dropped");
    expect(outcome.attempts).toHaveLength(5);
    expect(receiver.received).toHaveLength(5);
    expect(new Set(receiver.received.map((r) => r.update.update_id))).toEqual(
      new Set([sent.updateId]),
    );
    const starts = outcome.attempts.map((a) => a.startedAt);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    // Each wait is at least twice the one before (timers never fire early; load only adds).
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(40 * 2 ** i - 2));
    expect(outcome.attempts.every((a) => a.httpStatus === 500 && a.outcome === "failed")).toBe(
      true,
    );
    const info = await rawCall(tg, "getWebhookInfo");
    expect(info.body.result).toMatchObject({
      url: receiver.url,
      pending_update_count: 0,
      last_error_message: "Wrong response from the webhook: 500 Internal Server Error",
    });
  });

  it("delivers once the bot recovers, and holds the chat's next update until then", async () => {
    await setUp((_r, index) => ({ status: index < 2 ? 500 : 200 }));
    const ann = tg.createUser({ firstName: "Ann" });
    const first = await ann.send("one");
    const second = await ann.send("two");
    expect((await first.handled()).attempts.map((a) => a.httpStatus)).toEqual([500, 500, 200]);
    expect((await second.handled()).attempts).toHaveLength(1);
    expect(receiver.received.map((r) => r.update.message?.text)).toEqual([
      "one",
      "one",
      "one",
      "two",
    ]);
  });

  it("counts a timeout as a failure", async () => {
    const hang = gate();
    await setUp(
      (_r, index) => (index === 0 ? hang.promise.then(() => ({ status: 200 })) : { status: 200 }),
      {
        webhook: { timeoutMs: 100, retryBaseMs: 10 },
      },
    );
    const ann = tg.createUser({ firstName: "Ann" });
    const outcome = await (await ann.send("slow")).handled();
    hang.open();
    expect(outcome.status).toBe("delivered");
    expect(outcome.attempts[0]?.error).toBe("Read timeout expired");
    expect(outcome.attempts[1]?.outcome).toBe("ok");
  });

  it("honours a Retry-After header from the webhook", async () => {
    await setUp((_r, index) =>
      index === 0 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 },
    );
    const ann = tg.createUser({ firstName: "Ann" });
    const outcome = await (await ann.send("later")).handled();
    const [first, second] = outcome.attempts;
    expect(second!.startedAt - first!.startedAt).toBeGreaterThanOrEqual(950);
  });
});

describe("ordering and concurrency", () => {
  it("sends no second update of a chat while one is in flight; other chats proceed", async () => {
    const held = gate();
    await setUp((r) =>
      r.update.message?.chat.id === ann.chatId
        ? held.promise.then(() => ({ status: 200 }))
        : { status: 200 },
    );
    const ann = tg.createUser({ firstName: "Ann" });
    const bo = tg.createUser({ firstName: "Bo" });
    const annUpdates = [await ann.send("a1"), await ann.send("a2"), await ann.send("a3")];
    const boUpdates = [await bo.send("b1"), await bo.send("b2")];
    await Promise.all(boUpdates.map((u) => u.handled()));
    const fromAnn = (): string[] =>
      receiver.received
        .filter((r) => r.update.message?.chat.id === ann.chatId)
        .map((r) => r.update.message?.text ?? "");
    expect(fromAnn()).toEqual(["a1"]);
    held.open();
    await Promise.all(annUpdates.map((u) => u.handled()));
    expect(fromAnn()).toEqual(["a1", "a2", "a3"]);
    expect(receiver.maxOpenPerChat).toBe(1);
    expect(receiver.maxOpen).toBe(2);
  });

  it("keeps at most max_connections requests open", async () => {
    const held = gate();
    await setUp(() => held.promise.then(() => ({ status: 200 })), {}, { max_connections: 2 });
    const users = [0, 1, 2, 3, 4].map((i) => tg.createUser({ firstName: `U${i}` }));
    const sent = await Promise.all(users.map((u) => u.send("hi")));
    await until(() => receiver.received.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.open).toHaveLength(2);
    held.open();
    await Promise.all(sent.map((s) => s.handled()));
    expect(receiver.received).toHaveLength(5);
    expect(receiver.maxOpen).toBe(2);
  });

  it("gives update ids that increase", async () => {
    await setUp(() => ({ status: 200 }));
    const ann = tg.createUser({ firstName: "Ann" });
    const ids = [];
    for (const text of ["1", "2", "3"]) ids.push((await ann.send(text)).updateId);
    expect(ids).toEqual([ids[0], ids[0]! + 1, ids[0]! + 2]);
  });
});

describe("what reaches the bot", () => {
  it("carries the secret token header", async () => {
    await setUp(() => ({ status: 200 }));
    const ann = tg.createUser({ firstName: "Ann" });
    await (await ann.send("hi")).handled();
    expect(receiver.received[0]?.headers["x-telegram-bot-api-secret-token"]).toBe("hook_secret-1");
    expect(receiver.received[0]?.headers["content-type"]).toBe("application/json");
  });

  it("re-delivers an update whose response was lost (fault)", async () => {
    await setUp(() => ({ status: 200 }));
    tg.faults.delivery({ dropNextResponses: 1 });
    const ann = tg.createUser({ firstName: "Ann" });
    const outcome = await (await ann.send("hi")).handled();
    expect(outcome.status).toBe("delivered");
    expect(outcome.attempts.map((a) => a.error ?? "ok")).toEqual([
      "response dropped (fault)",
      "ok",
    ]);
    expect(receiver.received.map((r) => r.update.update_id)).toEqual([
      outcome.updateId,
      outcome.updateId,
    ]);
  });

  it("fails every request while the webhook is unreachable, then delivers (fault)", async () => {
    await setUp(() => ({ status: 200 }));
    tg.faults.delivery({ webhookUnreachable: true });
    const ann = tg.createUser({ firstName: "Ann" });
    const sent = await ann.send("later");
    await until(() => tg.deliveries.some((u) => u.attempts.length >= 2));
    expect(receiver.received).toEqual([]);
    tg.faults.delivery({});
    const outcome = await sent.handled();
    expect(outcome.status).toBe("delivered");
    const errors = outcome.attempts.map((a) => a.error ?? "ok");
    expect(errors.at(-1)).toBe("ok");
    expect(errors.slice(0, -1)).toEqual(
      errors.slice(0, -1).map(() => "Connection refused (fault)"),
    );
    expect(errors.length).toBeGreaterThanOrEqual(3);
    expect(receiver.received.map((r) => r.update.update_id)).toEqual([outcome.updateId]);
  });

  it("delivers an update twice with the same update_id (duplicate fault)", async () => {
    await setUp(() => ({ status: 200 }));
    tg.faults.delivery({ duplicateNext: 1 });
    const ann = tg.createUser({ firstName: "Ann" });
    const first = await ann.send("dup");
    const second = await ann.send("next");
    const outcome = await first.handled();
    await second.handled();
    expect(outcome.attempts.map((a) => a.duplicate ?? false)).toEqual([false, true]);
    expect(receiver.received.map((r) => r.update.message?.text)).toEqual(["dup", "dup", "next"]);
  });

  it("runs a method sent back in the webhook response (webhook reply)", async () => {
    await setUp((r) => ({
      status: 200,
      body: JSON.stringify({
        method: "sendMessage",
        chat_id: r.update.message?.chat.id,
        text: "pong",
      }),
    }));
    const ann = tg.createUser({ firstName: "Ann" });
    await ann.send("ping");
    expect((await ann.waitForMessage("pong")).text).toBe("pong");
    expect((await tg.waitForCall("sendMessage")).via).toBe("webhook-reply");
  });

  it("refuses getUpdates while a webhook is set", async () => {
    await setUp(() => ({ status: 200 }));
    const response = await rawCall(tg, "getUpdates");
    expect(response.status).toBe(409);
    expect(response.body.description).toBe(
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
    expect((await rawCall(tg, "deleteWebhook")).body.description).toBe("Webhook was deleted");
    expect((await rawCall(tg, "getUpdates")).body.ok).toBe(true);
  });

  it("checks the secret token and rate-limits setWebhook like Telegram", async () => {
    await setUp(() => ({ status: 200 }));
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    const bad = await rawCall(tg, "setWebhook", { url: receiver.url, secret_token: "no spaces!" });
    expect(bad.body.description).toBe("Bad Request: secret token contains unallowed characters");
    const again = await rawCall(tg, "setWebhook", { url: receiver.url });
    expect(again.status).toBe(429);
    expect(again.body.parameters).toEqual({ retry_after: 1 });
  });

  it("keeps max_connections within Telegram's 1-100, 40 when absent, as getWebhookInfo shows", async () => {
    tg = await startFakeTelegram({ setWebhookRateLimit: false });
    receiver = await startReceiver(() => ({ status: 200 }));
    const shown = async (maxConnections?: number) => {
      const extra = maxConnections === undefined ? {} : { max_connections: maxConnections };
      await rawCall(tg, "setWebhook", { url: receiver.url, ...extra });
      const info = await rawCall(tg, "getWebhookInfo");
      return (info.body.result as { max_connections: number }).max_connections;
    };
    expect(await shown()).toBe(40);
    expect(await shown(20)).toBe(20);
    expect(await shown(0)).toBe(1);
    expect(await shown(500)).toBe(100);
  });
});
