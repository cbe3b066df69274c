// The README opens with the "Copy this" table: the eight patterns, each with its code, its SQL and
// its test. Every linked path exists, each code file stays within 150 lines (a home a reader can
// copy), a code folder (a mechanism spanning files) is stated with its true total of lines, and
// each test is a test file. A fixture shows each check firing.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";

const PATTERNS = [
  "Redis lock",
  "Version-column conditional update",
  "Order idempotency key",
  "Transactional outbox, per-recipient sends",
  "Leader-locked job",
  "Limited-use promo code",
  "Webhook update dedupe",
  "Stock rule",
];
const MAX_LINES = 150;
const HEADER = "| pattern | the code | its SQL | its test | the rule it keeps |";

interface Row {
  pattern: string;
  /** The code cell as written: a folder's total of lines is stated there. */
  codeCell: string;
  code: string[];
  sql: string[];
  tests: string[];
}

const links = (cell: string) => [...cell.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);

/** The rows of the table under "## Copy this", which must be the README's first section. */
export function copyThisRows(readme: string): Row[] {
  const firstSection = /^## (.+)$/m.exec(readme)?.[1];
  if (firstSection !== "Copy this") throw new Error(`the first section is "${firstSection}"`);
  const lines = readme.split("\n");
  const start = lines.indexOf(HEADER);
  if (start < 0) throw new Error(`no table headed ${HEADER}`);
  const rows: Row[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [pattern, code, sql, tests] = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    rows.push({
      pattern: pattern!,
      codeCell: code!,
      code: links(code!),
      sql: links(sql!),
      tests: links(tests!),
    });
  }
  return rows;
}

const linesOf = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n").length;

/** The lines of every file under a folder, as the README states them. */
function folderLines(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((entry) => path.join(dir, entry))
    .filter((file) => statSync(file).isFile())
    .reduce((sum, file) => sum + linesOf(file), 0);
}

/** What is wrong with the table, read against the files under `root`: one line a problem. */
export function copyThisProblems(readme: string, root: string): string[] {
  const rows = copyThisRows(readme);
  const problems: string[] = [];
  const named = rows.map((r) => r.pattern);
  for (const pattern of PATTERNS)
    if (!named.includes(pattern)) problems.push(`missing pattern: ${pattern}`);
  const exists = (file: string) => existsSync(path.join(root, file));
  for (const row of rows) {
    if (row.code.length === 0) problems.push(`${row.pattern}: no code file`);
    if (row.tests.length === 0) problems.push(`${row.pattern}: no test`);
    for (const file of [...row.code, ...row.sql, ...row.tests])
      if (!exists(file)) problems.push(`${row.pattern}: no such path ${file}`);
    for (const file of row.code.filter(exists)) {
      const full = path.join(root, file);
      if (statSync(full).isDirectory()) {
        const total = folderLines(full);
        if (!row.codeCell.includes(`${total} lines`))
          problems.push(`${row.pattern}: ${file} has ${total} lines, not stated`);
        continue;
      }
      const lines = linesOf(full);
      if (lines > MAX_LINES) problems.push(`${row.pattern}: ${file} has ${lines} lines`);
    }
    for (const file of row.tests.filter(exists))
      if (!/\.test\.ts$/.test(file) || !statSync(path.join(root, file)).isFile())
        problems.push(`${row.pattern}: ${file} is not a test file`);
  }
  return problems;
}

describe("the README's Copy this table", () => {
  it("finds a missing pattern, a missing path, an over-long file, a folder's wrong size and a test that is not one", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "copy-this-"));
    mkdirSync(path.join(root, "home"));
    writeFileSync(path.join(root, "home", "a.ts"), "x\n".repeat(3));
    writeFileSync(path.join(root, "long.ts"), "x\n".repeat(MAX_LINES + 1));
    writeFileSync(path.join(root, "short.ts"), "x\n");
    writeFileSync(path.join(root, "short.test.ts"), "x\n");
    const fixture = [
      "# shop",
      "",
      "## Copy this",
      "",
      HEADER,
      "|---|---|---|---|---|",
      "| Redis lock | [long.ts](long.ts) | none | [t](short.test.ts) | one holder |",
      "| Stock rule | [short.ts](short.ts) | [gone](gone.sql) | [t](short.ts) | no oversell |",
      "| Leader-locked job | [home/](home/), 2 lines | none | [t](short.test.ts) | one runs |",
      "| Order idempotency key | [home/](home/), 3 lines | none | [t](short.test.ts) | one order |",
      "",
      "## Next",
    ].join("\n");
    const problems = copyThisProblems(fixture, root);
    const fixturePatterns = copyThisRows(fixture).map((r) => r.pattern);
    rmSync(root, { recursive: true });
    expect(problems).toEqual([
      ...PATTERNS.filter((p) => !fixturePatterns.includes(p)).map((p) => `missing pattern: ${p}`),
      `Redis lock: long.ts has ${MAX_LINES + 1} lines`,
      "Stock rule: no such path gone.sql",
      "Stock rule: short.ts is not a test file",
      "Leader-locked job: home/ has 3 lines, not stated",
    ]);
    expect(() => copyThisRows(fixture.replace("## Copy this", "## Quick start"))).toThrow(
      /first section/,
    );
  });

  it("lists the eight patterns, each home within 150 lines, each test a test file", () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, "README.md"), "utf8");
    expect(copyThisRows(readme).map((r) => r.pattern)).toEqual(PATTERNS);
    expect(copyThisProblems(readme, PROJECT_ROOT)).toEqual([]);
  });
});
