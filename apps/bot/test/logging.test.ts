import { PassThrough } from "node:stream";
import { GrammyError, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { createLogger } from "@orderbot/platform";
import { loggableError } from "../src/log-safety.ts";
import { inUpdateScope, updateIdMixin } from "../src/updates/scope.ts";

function capture() {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
  return { stream, lines };
}

describe("log lines written while an update is handled", () => {
  it("carry the update id once, whichever module logs them", async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ level: "info", destination: stream, mixin: updateIdMixin });
    const domain = logger.child({ module: "core" });
    await inUpdateScope(4242, performance.now(), async () => {
      domain.info("order reserved");
      logger.child({ updateId: 4242 }).info("handled");
    });
    domain.info("outside any update");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => (l.match(/"updateId"/g) ?? []).length)).toEqual([1, 1, 0]);
    expect(JSON.parse(lines[0]!)).toMatchObject({ module: "core", updateId: 4242 });
  });
});

describe("errors as they are logged", () => {
  it("keep a Bot API refusal's method and description, not the payload it was sent", () => {
    const error = new GrammyError(
      "Call to 'sendInvoice' failed!",
      { ok: false, error_code: 400, description: "Bad Request: CURRENCY_INVALID" },
      "sendInvoice",
      { provider_token: "live:provider-secret", chat_id: 1 },
    );
    const logged = JSON.stringify(loggableError(error));
    expect(logged).toContain("CURRENCY_INVALID");
    expect(logged).not.toContain("provider-secret");
  });

  it("keep a network failure's summary, not the request URL that holds the token", () => {
    const cause = new Error(
      "request to https://api.telegram.org/bot123456:SECRET-TOKEN-VALUE/getMe failed",
    );
    const logged = JSON.stringify(
      loggableError(new HttpError("Network request for 'getMe' failed!", cause)),
    );
    expect(logged).toContain("getMe");
    expect(logged).not.toContain("SECRET-TOKEN-VALUE");
  });
});
