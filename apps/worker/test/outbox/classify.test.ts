import { GrammyError, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { InvalidOutboxMessageError } from "../../src/outbox/api-call.ts";
import { classify } from "../../src/outbox/classify.ts";
import { decide, UNAUTHORIZED_RETRY_MS } from "../../src/outbox/retry.ts";

const policy = { maxAttempts: 30, baseMs: 200, maxMs: 2_000 };

const apiError = (error_code: number, description: string, parameters = {}) =>
  new GrammyError(
    `Call to 'sendMessage' failed!`,
    { ok: false, error_code, description, parameters },
    "sendMessage",
    {},
  );

describe("classify", () => {
  it("reads a 429's retry_after", () => {
    expect(
      classify(apiError(429, "Too Many Requests: retry after 3", { retry_after: 3 })),
    ).toMatchObject({ kind: "rate-limited", retryAfterMs: 3000 });
  });

  it("treats 5xx and network failures as transient", () => {
    expect(classify(apiError(500, "Internal Server Error")).kind).toBe("transient");
    expect(classify(apiError(502, "Bad Gateway")).kind).toBe("transient");
    expect(
      classify(
        new HttpError("Network request for 'sendMessage' failed!", new TypeError("fetch failed")),
      ),
    ).toEqual({
      kind: "transient",
      error: "network: TypeError",
    });
  });

  it("treats other 4xx as permanent, keeping the code", () => {
    expect(classify(apiError(403, "Forbidden: bot was blocked by the user"))).toMatchObject({
      kind: "permanent",
      code: 403,
    });
    expect(classify(apiError(400, "Bad Request: chat not found"))).toMatchObject({
      kind: "permanent",
      code: 400,
    });
    expect(classify(new InvalidOutboxMessageError(7, "payload is not an object")).kind).toBe(
      "permanent",
    );
  });

  it("keeps messages waiting, without counting attempts, while Telegram refuses the bot's token", () => {
    expect(classify(apiError(401, "Unauthorized"))).toEqual({
      kind: "unauthorized",
      error: "401: Unauthorized",
    });
    expect(classify(apiError(404, "Not Found"))).toEqual({
      kind: "unauthorized",
      error: "404: Not Found",
    });
    expect(decide({ kind: "unauthorized", error: "401: Unauthorized" }, 30, policy)).toEqual({
      action: "retry",
      delayMs: UNAUTHORIZED_RETRY_MS,
      counts: false,
      error: "401: Unauthorized",
    });
    // A 404 with a description of its own is about the request (a message to edit, say): permanent.
    expect(classify(apiError(404, "Not Found: message to edit not found")).kind).toBe("permanent");
  });

  it("counts a call whose effect is already there as done: an unchanged edit, an already refunded charge", () => {
    expect(classify(apiError(400, "Bad Request: message is not modified"))).toEqual({ kind: "ok" });
    expect(classify(apiError(400, "Bad Request: CHARGE_ALREADY_REFUNDED"))).toEqual({ kind: "ok" });
  });

  it("counts a card or invoice that is gone, or too old to delete, as nothing left to do", () => {
    for (const description of [
      "Bad Request: message to delete not found",
      "Bad Request: message to edit not found",
      "Bad Request: message can't be deleted for everyone",
      "Bad Request: there is no text in the message to edit",
    ])
      expect(classify(apiError(400, description)), description).toEqual({ kind: "ok" });
    expect(classify(apiError(400, "Bad Request: chat not found"))).toMatchObject({
      kind: "permanent",
    });
  });
});
