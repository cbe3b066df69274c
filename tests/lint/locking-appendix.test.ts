// docs/locking.md's appendix names, for each rule of the locking guide, a test file and the exact
// title of a test in it. This keeps the table true: a test renamed, moved or deleted fails here
// until the appendix says where its rule is proved now.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";

const doc = readFileSync(path.join(PROJECT_ROOT, "docs/locking.md"), "utf8");
const appendix = doc.slice(doc.indexOf("## Appendix: the tests behind each rule"));

/** The appendix's rows: `| rule | \`file\` | title |`. */
const rows = [...appendix.matchAll(/^\| ([^|]+?) \| `([^`]+)` \| ([^|]+?) \|$/gm)].map((m) => ({
  rule: m[1]!,
  file: m[2]!,
  title: m[3]!,
}));

/** Whether `file` declares a test (or a group) titled `title`, in any of the quotes a title takes. */
function declares(file: string, title: string): boolean {
  const text = readFileSync(path.join(PROJECT_ROOT, file), "utf8");
  return ['"', "'", "`"].some((quote) => text.includes(`${quote}${title}${quote}`));
}

describe("docs/locking.md appendix", () => {
  it("lists tests for every rule of the guide", () => {
    expect(appendix.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.rule)).size).toBeGreaterThanOrEqual(12);
  });

  it.each(rows.map((row) => [`${row.file} › ${row.title}`, row] as const))(
    "%s exists",
    (_name, row) => {
      expect(existsSync(path.join(PROJECT_ROOT, row.file)), `${row.file} is missing`).toBe(true);
      expect(declares(row.file, row.title), `no test titled "${row.title}"`).toBe(true);
    },
  );
});
