// Keeps the documentation true: every setting the code reads is documented in .env.example, and
// every documented setting is in the configuration reference (docs/configuration.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");

/** Keys of the zod config shapes: `  NAME: z....` lines in the config modules. */
function configKeys(): Set<string> {
  const files = [
    "packages/platform/src/config.ts",
    "packages/platform/src/redis.ts",
    "apps/bot/src/config.ts",
    "apps/worker/src/config.ts",
  ];
  const keys = new Set<string>();
  for (const file of files) {
    for (const match of read(file).matchAll(/^\s+([A-Z][A-Z0-9_]+):\s/gm)) keys.add(match[1]!);
  }
  return keys;
}

function envExampleKeys(): Set<string> {
  return new Set(
    [...read(".env.example").matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!),
  );
}

describe("documentation", () => {
  it("documents in .env.example every setting the processes read", () => {
    const documented = envExampleKeys();
    const keys = configKeys();
    expect(keys.size).toBeGreaterThan(30);
    expect([...keys].filter((key) => !documented.has(key))).toEqual([]);
  });

  it("lists every .env.example setting in docs/configuration.md's tables", () => {
    const reference = read("docs/configuration.md");
    expect([...envExampleKeys()].filter((key) => !reference.includes(`| \`${key}\` |`))).toEqual(
      [],
    );
  });

  it("links only to documents that exist", () => {
    const readme = read("README.md");
    const links = [...readme.matchAll(/\]\(((?:docs|packages|apps)\/[^)#]+|[A-Z]+\.md)\)/g)].map(
      (m) => m[1]!,
    );
    expect(links.length).toBeGreaterThan(5);
    const missing = links.filter((link) => {
      try {
        readFileSync(
          path.join(
            PROJECT_ROOT,
            link.endsWith("/") || !link.includes(".") ? path.join(link, "README.md") : link,
          ),
        );
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
