// npm run lint's dependency check (scripts/lib/unused-dependencies.ts), shown firing on a fixture
// workspace and passing on every workspace of the repository.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { unusedDependencies, workspacesOf } from "../../scripts/lib/unused-dependencies.ts";

const FIXTURE = path.join(import.meta.dirname, "unused-dependency");

describe("the unused-dependency check", () => {
  it("names a declared dependency nothing imports or runs", async () => {
    expect(await unusedDependencies(PROJECT_ROOT, FIXTURE)).toEqual(["zod", "@types/pg"]);
  });

  it("finds every workspace using each dependency it declares", async () => {
    const [root, ...workspaces] = await workspacesOf(PROJECT_ROOT);
    const found: Record<string, string[]> = {};
    for (const dir of [root!, ...workspaces]) {
      const nested = dir === root ? new Set(workspaces) : undefined;
      const unused = await unusedDependencies(PROJECT_ROOT, dir, nested);
      if (unused.length > 0) found[path.relative(PROJECT_ROOT, dir) || "."] = unused;
    }
    expect(found).toEqual({});
  });
});
