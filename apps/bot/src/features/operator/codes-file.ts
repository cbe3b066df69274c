// Reading a /codes file without trusting it: its size is capped while it arrives (Telegram's
// file_size may be missing) and its codes are counted line by line, so a file past either limit
// is refused as soon as that is known, before the rest is read or anything is split.
import { codeOfLine, MAX_CODES_PER_BATCH } from "@orderbot/core/delivery";
import { MAX_FILE_BYTES } from "./telegram-file.ts";

export { MAX_FILE_BYTES };

export type CodesFile =
  | { status: "ok"; text: string }
  | { status: "too-big" }
  | { status: "too-many" }
  | { status: "unreadable" };

export interface CodesFileLimits {
  bytes: number;
  codes: number;
}

const LIMITS: CodesFileLimits = { bytes: MAX_FILE_BYTES, codes: MAX_CODES_PER_BATCH };

/**
 * The file's text (UTF-8, a leading BOM dropped), read chunk by chunk: refused once it passes
 * `limits.bytes` or holds more than `limits.codes` distinct codes, and the rest never read.
 */
export async function readCodesFile(
  body: ReadableStream<Uint8Array>,
  format: "lines" | "csv",
  limits: CodesFileLimits = LIMITS,
): Promise<CodesFile> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const codes = new Set<string>();
  const parts: string[] = [];
  let bytes = 0;
  let pending = "";
  const refuse = async (status: "too-big" | "too-many" | "unreadable") => {
    await reader.cancel().catch(() => undefined);
    return { status } as const;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limits.bytes) return await refuse("too-big");
      const chunk = decoder.decode(value, { stream: true });
      parts.push(chunk);
      // Only the chunk is split: a line longer than a chunk is not scanned again on every read.
      const lines = chunk.split(/\r\n|\r|\n/);
      lines[0] = pending + lines[0];
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const code = codeOfLine(line, format);
        if (code !== "") codes.add(code);
      }
      if (codes.size > limits.codes) return await refuse("too-many");
    }
    parts.push(decoder.decode());
  } catch {
    return await refuse("unreadable");
  }
  return { status: "ok", text: parts.join("").replace(/^\uFEFF/, "") };
}
