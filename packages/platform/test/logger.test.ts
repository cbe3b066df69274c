// The logger keeps secrets and personal data out of every line: each test logs realistic objects
// (a Telegram update, a Fastify request, a grammY error) to a stream and scans what came out.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, maskSecretsInText } from "../src/index.ts";

const BOT_TOKEN = "7312345678:AAH3xq9Zt_secretTokenValue-0123456789abc";
const WEBHOOK_SECRET = "whsec_k2Jd9sLq0pXv7";
const PHONE = "+447700900123";
const INVOICE_PAYLOAD = "order:ORD-8842:nonce-c0ffee";
const PROVIDER_CHARGE_ID = "ch_3PxyzProviderCharge";
const PROVIDER_TOKEN = "284685063:TEST:ProviderTokenValue";
const DB_PASSWORD = "hunter2-db-password";

function capture() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  const logger = createLogger({ level: "trace", name: "test", destination });
  const lines = () =>
    chunks
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, output: () => chunks.join(""), lines };
}

function expectAbsent(output: string, ...values: string[]) {
  for (const value of values) expect(output, `"${value}" leaked into the log`).not.toContain(value);
}

describe("createLogger redaction", () => {
  it("removes the bot token wherever it is a field, at any depth", () => {
    const { logger, output, lines } = capture();
    logger.info({ token: BOT_TOKEN }, "a");
    logger.info({ config: { BOT_TOKEN, LOG_LEVEL: "info" } }, "b");
    logger.info({ bot: { api: { client: { token: BOT_TOKEN } } } }, "c");
    expectAbsent(output(), BOT_TOKEN);
    expect(lines().map((l) => l.msg)).toEqual(["a", "b", "c"]);
    expect(lines()[1]).toMatchObject({ config: { BOT_TOKEN: "[redacted]", LOG_LEVEL: "info" } });
  });

  it("removes the bot token from messages and error messages (a Bot API URL quoted in an error)", () => {
    const { logger, output, lines } = capture();
    const url = `https://api.telegram.org/bot${BOT_TOKEN}/sendMessage`;
    logger.info(`calling ${url}`);
    logger.error(
      { err: new Error(`request to ${url} failed, reason: ECONNRESET`) },
      "Bot API call failed",
    );
    logger.warn({ request: { url } }, "slow call");
    expectAbsent(output(), BOT_TOKEN);
    expect(output()).toContain("https://api.telegram.org/bot[redacted-token]/sendMessage");
    expect(lines()).toHaveLength(3); // masking keeps every line valid JSON
  });

  it("removes the webhook secret header from a logged request and keeps the other headers", () => {
    const { logger, output, lines } = capture();
    const headers = {
      "x-telegram-bot-api-secret-token": WEBHOOK_SECRET,
      "content-type": "application/json",
    };
    logger.info({ req: { method: "POST", url: "/telegram/webhook", headers } }, "request");
    logger.info({ headers }, "headers alone");
    logger.info(
      { http: { request: { headers: { ...headers, authorization: `Bearer ${WEBHOOK_SECRET}` } } } },
      "nested",
    );
    expectAbsent(output(), WEBHOOK_SECRET);
    expect(lines()[0]).toMatchObject({
      req: {
        headers: {
          "x-telegram-bot-api-secret-token": "[redacted]",
          "content-type": "application/json",
        },
      },
    });
  });

  it("removes payment payloads and phone numbers from a whole update, keeping what explains it", () => {
    const { logger, output, lines } = capture();
    const successfulPayment = {
      update_id: 918_273_645,
      message: {
        message_id: 77,
        chat: { id: 5_550_001, type: "private" },
        successful_payment: {
          currency: "XTR",
          total_amount: 250,
          invoice_payload: INVOICE_PAYLOAD,
          telegram_payment_charge_id: "tg-charge-1",
          provider_payment_charge_id: PROVIDER_CHARGE_ID,
          order_info: {
            name: "Ann",
            phone_number: PHONE,
            shipping_address: { street_line1: "1 High St" },
          },
        },
      },
    };
    const preCheckout = {
      update_id: 918_273_646,
      pre_checkout_query: {
        id: "pcq-1",
        currency: "XTR",
        total_amount: 250,
        invoice_payload: INVOICE_PAYLOAD,
        order_info: { phone_number: PHONE },
      },
    };
    const sharedContact = {
      update_id: 918_273_647,
      message: { message_id: 78, contact: { phone_number: PHONE, first_name: "Ann" } },
    };
    const updateLog = logger.child({ updateId: successfulPayment.update_id });
    updateLog.info({ update: successfulPayment }, "update received");
    logger.info({ update: preCheckout }, "update received");
    logger.info({ update: sharedContact }, "update received");
    logger.info(preCheckout, "update spread at the top level");
    expectAbsent(output(), INVOICE_PAYLOAD, PROVIDER_CHARGE_ID, PHONE, "1 High St");
    const [first] = lines();
    expect(first).toMatchObject({
      updateId: 918_273_645,
      update: {
        update_id: 918_273_645,
        message: {
          successful_payment: {
            total_amount: 250,
            invoice_payload: "[redacted]",
            telegram_payment_charge_id: "tg-charge-1",
          },
        },
      },
    });
  });

  it("removes names, usernames and message text from an update, keeping the ids", () => {
    const { logger, output, lines } = capture();
    const FIRST = "Annabel-first-7c1";
    const LAST = "Okonkwo-last-7c1";
    const USERNAME = "annabel_handle_7c1";
    const TEXT = "please deliver to 12 Elm Road, flat 3";
    const user = {
      id: 5_550_002,
      is_bot: false,
      first_name: FIRST,
      last_name: LAST,
      username: USERNAME,
    };
    const message = {
      update_id: 918_273_650,
      message: {
        message_id: 79,
        from: user,
        chat: { id: 5_550_002, type: "private", first_name: FIRST, username: USERNAME },
        text: TEXT,
      },
    };
    const callback = {
      update_id: 918_273_651,
      callback_query: {
        id: "cb-1",
        from: user,
        data: "buy:1",
        message: { message_id: 80, text: TEXT },
      },
    };
    logger.info({ update: message }, "update received");
    logger.info({ update: callback }, "update received");
    logger.info(user, "user spread at the top level");
    expectAbsent(output(), FIRST, LAST, USERNAME, TEXT);
    expect(lines()[0]).toMatchObject({
      update: {
        update_id: 918_273_650,
        message: {
          from: { id: 5_550_002, first_name: "[redacted]", last_name: "[redacted]" },
          text: "[redacted]",
        },
      },
    });
  });

  it("removes the invoice payload and provider token from a grammY error's call payload", () => {
    const { logger, output } = capture();
    const err = Object.assign(
      new Error("Call to 'sendInvoice' failed! (400: Bad Request: CURRENCY_INVALID)"),
      {
        method: "sendInvoice",
        payload: {
          chat_id: 5_550_001,
          payload: INVOICE_PAYLOAD,
          provider_token: PROVIDER_TOKEN,
          currency: "USD",
        },
      },
    );
    logger.error({ err }, "sendInvoice failed");
    expectAbsent(output(), INVOICE_PAYLOAD, PROVIDER_TOKEN);
    expect(output()).toContain("CURRENCY_INVALID");
  });

  it("masks passwords in connection strings, wherever they are written", () => {
    const { logger, output } = capture();
    const url = `postgresql://orderbot:${DB_PASSWORD}@postgres:5432/orderbot`;
    logger.error({ err: new Error(`connect ECONNREFUSED ${url}`) }, "database unreachable");
    logger.info({ config: { DATABASE_URL: url } }, "config");
    logger.info({ target: `redis://:${DB_PASSWORD}@redis:6379` }, "connecting");
    expectAbsent(output(), DB_PASSWORD);
    expect(output()).toContain("postgresql://orderbot:[redacted]@postgres:5432/orderbot");
  });
});

describe("createLogger, around redaction", () => {
  it("scrubs child bindings too, and the bound update id reaches every line", () => {
    const { logger, output, lines } = capture();
    const child = logger.child({ updateId: 42, config: { WEBHOOK_SECRET, BOT_MODE: "webhook" } });
    child.info("first");
    child.warn({ step: 2 }, "second");
    expectAbsent(output(), WEBHOOK_SECRET);
    expect(lines().map((l) => l.updateId)).toEqual([42, 42]);
  });

  it("leaves the logged object untouched and survives circular references", () => {
    const { logger, output } = capture();
    const update: Record<string, unknown> = {
      update_id: 1,
      message: { contact: { phone_number: PHONE } },
    };
    update.self = update;
    logger.info({ update }, "circular");
    expectAbsent(output(), PHONE);
    expect(output()).toContain("[Circular]");
    expect((update.message as { contact: { phone_number: string } }).contact.phone_number).toBe(
      PHONE,
    );
  });
});

describe("maskSecretsInText", () => {
  it("leaves text without secrets unchanged", () => {
    const text = 'GET http://127.0.0.1:8080/healthz {"a":"b@c"} order 12345:ok';
    expect(maskSecretsInText(text)).toBe(text);
  });
});
