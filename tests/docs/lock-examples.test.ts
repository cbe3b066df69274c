// packages/lock promises a short @example on what a user calls: every function, class and constant
// its index exports, the error classes, the option types, and the manager's and lease's methods.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { trackedFiles } from "./repo.ts";
import { docOf, exportedNames } from "./tsdoc.ts";

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");
const sources = trackedFiles("packages/lock/src/*.ts").map(read);

/** Beside the index's own exports: what `export * from types.ts` and the manager give a caller. */
const CALLED = [
  "LockKindConfig",
  "AcquireOptions",
  "WithLockOptions",
  "LockInputError",
  "LockUnavailableError",
  "LeaseLostError",
  "Lease",
  "acquire",
  "withLock",
  "extend",
  "assertHeld",
];

/** The exports a user calls: values (not the type-only ones) and the names above. */
function promised(): string[] {
  const index = read("packages/lock/src/index.ts");
  const values = exportedNames(index.replace(/\btype \w+,?/g, "")).filter(
    (name) => !/^[A-Z][a-z]/.test(name) || name === "LuaScript",
  );
  return [...values, ...CALLED];
}

const example = (name: string) =>
  sources.map((source) => docOf(source, name)).find((doc) => doc !== "") ?? "";

describe("the lock's examples", () => {
  it("finds a missing @example in a fixture", () => {
    const fixture =
      "/** Has one.\n * @example f() */\nexport function f() {}\n\n/** None. */\nexport function g() {}\n";
    expect(docOf(fixture, "f")).toContain("@example");
    expect(docOf(fixture, "g")).not.toContain("@example");
  });

  it.each(promised())("%s has a short @example in its TSDoc", (name) => {
    expect(example(name)).toContain("@example");
  });
});
