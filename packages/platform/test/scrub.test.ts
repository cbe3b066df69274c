import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { scrubSecrets, scrubText } from "../src/scrub.ts";

describe("the output scrubber", () => {
  it("replaces the secrets it was given wherever they appear", async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on("data", (chunk: Buffer) =>
      lines.push(...chunk.toString().split("\n").filter(Boolean)),
    );
    const out = scrubSecrets(stream, ["webhook-secret-value", "short"]);
    out.write('{"msg":"header was webhook-secret-value","note":"short"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual(['{"msg":"header was [redacted]","note":"short"}']);
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
