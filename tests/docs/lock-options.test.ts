// Every `createLockManager({ ... })` in the docs passes only options LockManagerOptions has.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { optionsPassed } from "./call-options.ts";
import { trackedFiles } from "./repo.ts";

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");

function lockManagerOptions(): Set<string> {
  const types = read("packages/lock/src/core/types.ts");
  const body = /export interface LockManagerOptions \{([\s\S]*?)\n\}/.exec(types)?.[1] ?? "";
  return new Set([...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!));
}

const docs = trackedFiles("*.md").filter((file) => !file.startsWith("docs/transcripts/"));
const known = lockManagerOptions();

describe("createLockManager in the docs", () => {
  it("reads the options from the code", () => {
    expect([...known]).toEqual(expect.arrayContaining(["redis", "namespace", "kinds", "layers"]));
  });

  it("finds an option that does not exist in a fixture", () => {
    const fixture = "createLockManager({ redis, kinds: LOCK_KINDS, hashKey, registry, logger });";
    expect(optionsPassed(fixture, "createLockManager")).toEqual([
      ["redis", "kinds", "hashKey", "registry", "logger"],
    ]);
    expect(optionsPassed(fixture, "createLockManager")[0]!.filter((o) => !known.has(o))).toEqual([
      "registry",
    ]);
  });

  it.each(docs)("%s passes only options that exist", (file) => {
    const unknown = optionsPassed(read(file), "createLockManager")
      .flat()
      .filter((option) => !known.has(option));
    expect(unknown).toEqual([]);
  });
});
