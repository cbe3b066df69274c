// Every lock the apps and core take passes a request id (the update, the job run), so that the
// lock's warnings can be traced to what was being served. A call without one fails here, with its
// file and line. The warnings themselves are shown carrying it in apps/bot/test/updates and
// apps/worker/test/jobs (lock-request-id.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";

const ROOTS = ["apps/bot/src", "apps/worker/src", "apps/demo/src", "packages/core/src"];

function sources(dir: string): string[] {
  const full = path.join(PROJECT_ROOT, dir);
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.relative(PROJECT_ROOT, path.join(e.parentPath, e.name)));
}

/** The text of the call opening at `open` (the index of its "("), up to its matching ")". */
function callText(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/** Every `locks.withLock(` / `locks.acquire(` call in code (not in comments), with its line. */
function lockCalls(file: string): { line: number; text: string }[] {
  const text = readFileSync(path.join(PROJECT_ROOT, file), "utf8");
  const calls: { line: number; text: string }[] = [];
  for (const match of text.matchAll(/\blocks\.(withLock|acquire)\(/g)) {
    const lineStart = text.lastIndexOf("\n", match.index) + 1;
    const before = text.slice(lineStart, match.index).trim();
    if (before.startsWith("*") || before.startsWith("//")) continue;
    calls.push({
      line: text.slice(0, match.index).split("\n").length,
      text: callText(text, match.index + match[0].length - 1),
    });
  }
  return calls;
}

describe("lock calls pass a request id", () => {
  const calls = ROOTS.flatMap(sources).flatMap((file) =>
    lockCalls(file).map((call) => ({ where: `${file}:${call.line}`, text: call.text })),
  );

  it("finds the lock calls (the scan itself works)", () => {
    expect(calls.length).toBeGreaterThanOrEqual(9);
  });

  it("every one of them passes requestId", () => {
    expect(calls.filter((call) => !/\brequestId\b/.test(call.text)).map((c) => c.where)).toEqual(
      [],
    );
  });
});
