// Core's entry points: one per domain folder, each in the package's exports, and a root entry that
// exports only the shop as a whole (no barrel of every domain's names).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CORE = path.resolve(import.meta.dirname, "..");
const SRC = path.join(CORE, "src");
const domains = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const manifest = JSON.parse(readFileSync(path.join(CORE, "package.json"), "utf8")) as {
  exports: Record<string, string>;
};

describe("core's entry points", () => {
  it("give every domain folder an entry named after it", () => {
    expect(domains.length).toBeGreaterThan(10);
    const entries = Object.fromEntries(domains.map((d) => [`./${d}`, `./src/${d}/index.ts`]));
    expect(manifest.exports).toEqual({ ".": "./src/index.ts", ...entries });
  });

  it("keep the root entry to the shop as a whole: nothing from a domain folder", () => {
    const root = readFileSync(path.join(SRC, "index.ts"), "utf8");
    const from = [...root.matchAll(/from "\.\/([^"]+)"/g)].map((m) => m[1]!);
    expect(from.length).toBeGreaterThan(0);
    expect(from.filter((file) => file.includes("/"))).toEqual([]);
  });
});
