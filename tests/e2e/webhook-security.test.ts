// The webhook's front door, over real HTTP through the proxy to the bot processes.
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { TEST_PHONE_NUMBERS } from "./support/logs.ts";
import { useShop, WEBHOOK_PATH } from "./support/shop.ts";

const shop = useShop({ replicas: 2 });

/**
 * POSTs `body` and resolves with the status the server answered. The headers go first, as a
 * client that waits for an early answer does: a server that refuses by Content-Length answers
 * before any of the body is sent. Otherwise the body follows in chunks until an answer comes, so
 * no write races the server closing the socket after answering (EPIPE instead of the status).
 */
function postedStatus(url: string, body: string, secret: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "x-telegram-bot-api-secret-token": secret,
      },
    });
    let answered = false;
    req.on("response", (response) => {
      answered = true;
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.flushHeaders();
    void (async () => {
      await new Promise((done) => setTimeout(done, 1_000));
      const bytes = Buffer.from(body);
      for (let at = 0; at < bytes.length && !answered && !req.destroyed; at += 64 * 1024) {
        if (!req.write(bytes.subarray(at, at + 64 * 1024)))
          await new Promise((drained) => req.once("drain", drained));
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
}

/** What an update could have changed: recorded updates and every Bot API call. */
async function footprint() {
  return { processed: await shop.db.processedUpdate.count(), calls: shop.kit.calls.length };
}

function startUpdate(updateId: number, chatId: number) {
  return {
    update_id: updateId,
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: "private", first_name: "Mallory" },
      from: { id: chatId, is_bot: false, first_name: "Mallory" },
      text: "/start",
      entities: [{ type: "bot_command", offset: 0, length: 6 }],
    },
  };
}

describe("the webhook", () => {
  it.each([
    ["no secret", () => ({})],
    ["an empty secret", () => ({ "x-telegram-bot-api-secret-token": "" })],
    ["a wrong secret", () => ({ "x-telegram-bot-api-secret-token": "wrong-secret" })],
    [
      "the secret with its last character changed",
      () => ({ "x-telegram-bot-api-secret-token": `${shop.secret.slice(0, -1)}x` }),
    ],
  ])("answers 401 to %s, and processes nothing", async (_label, headers) => {
    const mallory = shop.kit.createUser();
    const before = await footprint();
    for (let i = 0; i < 4; i++) {
      // Four requests: the proxy sends them to both replicas.
      const response = await shop.post(startUpdate(880_000_000 + i, mallory.id), headers());
      expect(response.status).toBe(401);
    }
    expect(await footprint()).toEqual(before);
  });

  it("answers 413 to a 2 MB body", async () => {
    const before = await footprint();
    const huge = JSON.stringify({
      update_id: 881_000_000,
      message: { text: "x".repeat(2 * 1024 * 1024) },
    });
    // To each replica directly: the body limit is the bot's, whatever sits in front of it.
    for (const replica of shop.replicaUrls) {
      expect(await postedStatus(`${replica}${WEBHOOK_PATH}`, huge, shop.secret)).toBe(413);
    }
    expect(await footprint()).toEqual(before);
  });

  it("answers 400 to malformed JSON and to bodies without an integer update_id", async () => {
    const before = await footprint();
    for (const body of [
      '{"update_id": 1,',
      "not json",
      '{"update_id": "12"}',
      '{"update_id": 1.5}',
      "[]",
    ]) {
      expect((await shop.post(body)).status, body).toBe(400);
    }
    expect(await footprint()).toEqual(before);
  });

  it("keeps a shared phone number out of everything it logs (checked when the processes stop)", async () => {
    const user = shop.kit.createUser({ languageCode: "en" });
    await user.send("/start");
    await user.waitForMessage("Welcome", { timeoutMs: 10_000 });
    for (const [i, phone] of TEST_PHONE_NUMBERS.entries()) {
      const response = await shop.post({
        update_id: 882_000_000 + i,
        message: {
          message_id: 50 + i,
          date: Math.floor(Date.now() / 1000),
          chat: { id: user.chatId, type: "private", first_name: "Pat" },
          from: { id: user.id, is_bot: false, first_name: "Pat" },
          contact: { phone_number: phone, first_name: "Pat", user_id: user.id },
        },
      });
      expect(response.status).toBe(200);
    }
    const replies = user
      .view()
      .botMessages.filter((m) => m.text?.includes("does not need your phone number"));
    expect(replies).toHaveLength(TEST_PHONE_NUMBERS.length);
  });
});
