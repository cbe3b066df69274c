// Every tracked Markdown file (docs/transcripts/ aside) names only paths, npm scripts, settings and
// identifiers that exist: a doc that outlives the code it describes fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { staleClaims } from "./claims.ts";
import { foreignNames, readRepo, trackedFiles } from "./repo.ts";

const repo = readRepo();
const foreign = foreignNames();
const docs = trackedFiles("*.md").filter((file) => !file.startsWith("docs/transcripts/"));

describe("the docs' claims", () => {
  it("finds a stale path, link, script, variable and identifier in a fixture", () => {
    const fixture = [
      "Stale: `apps/bot/src/nowhere.ts`, [the guide](missing-guide.md), `npm run no-such-script`,",
      "`NO_SUCH_SETTING=1`, `noSuchFunction()` and `NoSuchType`.",
      "True: `apps/bot/src/config.ts`, [config](configuration.md), `npm run docs:config`,",
      "`LOCK_HASH_KEY`, `createLockManager()`, `ConfigError`, `src/core/manager.ts`.",
    ].join("\n");
    expect(staleClaims(fixture, "docs/fixture.md", repo, foreign)).toEqual([
      { kind: "path", claim: "apps/bot/src/nowhere.ts" },
      { kind: "link", claim: "missing-guide.md" },
      { kind: "script", claim: "npm run no-such-script" },
      { kind: "env", claim: "NO_SUCH_SETTING" },
      { kind: "identifier", claim: "noSuchFunction" },
      { kind: "identifier", claim: "NoSuchType" },
    ]);
  });

  it("reads the repository it checks against", () => {
    expect(docs.length).toBeGreaterThan(10);
    expect(repo.scripts.get("")?.has("test")).toBe(true);
    expect(repo.envNames.has("BOT_TOKEN")).toBe(true);
    expect(repo.identifiers.has("createLockManager")).toBe(true);
  });

  it.each(docs)("%s names only what exists", (file) => {
    const markdown = readFileSync(path.join(PROJECT_ROOT, file), "utf8");
    expect(staleClaims(markdown, file, repo, foreign)).toEqual([]);
  });
});
