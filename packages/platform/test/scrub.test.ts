import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.ts";
import { scrubText } from "../src/scrub.ts";

describe("the logger's secret values", () => {
  it("replaces the secrets it was given wherever they appear", async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on("data", (chunk: Buffer) =>
      lines.push(...chunk.toString().split("\n").filter(Boolean)),
    );
    const logger = createLogger({
      level: "info",
      destination: stream,
      secrets: ["webhook-secret-value", "short"],
    });
    logger.info({ note: "short" }, "header was webhook-secret-value");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"msg":"header was [redacted]"');
    expect(lines[0]).toContain('"note":"short"');
  });
});

describe("scrubText (what a process writes outside its logger)", () => {
  it("masks bot tokens and URL passwords by pattern, and the given secrets by value", () => {
    const token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    const text = `getMe https://api.telegram.org/bot${token}/getMe; postgresql://app:pg-pass-0123@db/x; key hash-key-0123456789`;
    const scrubbed = scrubText(text, ["hash-key-0123456789", "short"]);
    for (const secret of [token, "pg-pass-0123", "hash-key-0123456789"])
      expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain("getMe");
  });
});
