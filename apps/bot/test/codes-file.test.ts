// Reading a /codes file (src/features/operator/codes-file.ts): a file is refused as soon as it
// passes the size cap or the code limit, and the rest of it is never read.
import { describe, expect, it } from "vitest";
import { MAX_FILE_BYTES, readCodesFile } from "../src/features/operator/codes-file.ts";

const encoder = new TextEncoder();

/** A body that never ends: `chunk(n)` for the n-th read; counts reads and notes a cancel. */
function endless(chunk: (n: number) => string) {
  const seen = { reads: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(encoder.encode(chunk(seen.reads++)));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

function finite(text: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof text === "string" ? encoder.encode(text) : text;
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.slice(i, i + 1000));
      controller.close();
    },
  });
}

describe("readCodesFile", () => {
  it("stops at the first code past the limit, counting a repeated code once", async () => {
    // 100 codes a read, each twice: 50 distinct codes a read.
    const { body, seen } = endless((n) =>
      Array.from({ length: 100 }, (_, i) => `C-${n}-${i % 50}\n`).join(""),
    );
    const result = await readCodesFile(body, "lines", { bytes: 1e9, codes: 5_000 });
    expect(result).toEqual({ status: "too-many" });
    expect(seen.cancelled).toBe(true);
    expect(seen.reads).toBeLessThanOrEqual(5_000 / 50 + 2);
  });

  it("stops at the size cap when the file's size was not given", async () => {
    const { body, seen } = endless(() => "x".repeat(64 * 1024));
    expect(await readCodesFile(body, "lines")).toEqual({ status: "too-big" });
    expect(seen.cancelled).toBe(true);
    expect(seen.reads * 64 * 1024).toBeLessThanOrEqual(MAX_FILE_BYTES + 2 * 64 * 1024);
  });

  it("reads a file within both limits whole, its first CSV field a code", async () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `"K,${i}",note`).join("\r\n");
    const result = await readCodesFile(finite(`\uFEFFcode,note\r\n${lines}`), "csv", {
      bytes: 1e9,
      codes: 5_001,
    });
    expect(result).toEqual({ status: "ok", text: `code,note\r\n${lines}` });
  });

  it("refuses bytes that are not UTF-8 text", async () => {
    const result = await readCodesFile(finite(new Uint8Array([0x41, 0xff, 0x0a])), "lines");
    expect(result).toEqual({ status: "unreadable" });
  });
});
