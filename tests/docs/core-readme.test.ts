// The core README names createShop's services and counts them and the domain folders: both must
// match packages/core/src. Its example builds the shop as production does.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");

/** The members of `interface Shop` in shop.ts, less `deps` (what they were built from). */
function shopServices(): string[] {
  const body = /export interface Shop \{([\s\S]*?)\n\}/.exec(
    read("packages/core/src/shop.ts"),
  )?.[1];
  return [...(body ?? "").matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]!).filter((n) => n !== "deps");
}

/** Folders of packages/core/src, less database/ (shared by the domains). */
function domainFolders(): string[] {
  return readdirSync(path.join(PROJECT_ROOT, "packages/core/src"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "database")
    .map((entry) => entry.name);
}

/** The example's imports: each name and the package it comes from. */
function importsOf(code: string): { name: string; from: string }[] {
  return [...code.matchAll(/^import \{([^}]+)\} from "([^"]+)";$/gm)].flatMap((m) =>
    m[1]!.split(",").map((name) => ({ name: name.trim(), from: m[2]! })),
  );
}

/** A lock manager built by hand has no outage layer unless it names one. */
function buildsLocksAsProduction(code: string): boolean {
  return code.includes("connectRedis(") || /createLockManager\([\s\S]*outage:/.test(code);
}

/** The number a sentence puts right before `noun` ("returns 16 services"), or undefined. */
function countBefore(text: string, noun: string): number | undefined {
  const match = new RegExp(`\\b(\\d+) (?:[\\w-]+ )?${noun}\\b`).exec(text);
  return match ? Number(match[1]) : undefined;
}

describe("the core README", () => {
  const readme = read("packages/core/README.md");
  const services = shopServices();

  it("reads the services and folders from the code", () => {
    expect(services).toContain("orders");
    expect(domainFolders()).toContain("orders");
  });

  it("names every service of createShop", () => {
    expect(services.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it("counts the services and the domain folders as the code has them", () => {
    expect(countBefore(readme, "services")).toBe(services.length);
    expect(countBefore(readme, "folders")).toBe(domainFolders().length);
  });

  it("builds the shop's locks as production does, with names the packages export", async () => {
    const example = /## Example\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(buildsLocksAsProduction(example)).toBe(true);
    const imports = importsOf(example);
    expect(imports.map((i) => i.name)).toContain("connectRedis");
    for (const { name, from } of imports) {
      const exported = (await import(from)) as Record<string, unknown>;
      expect(exported[name], `${from} exports ${name}`).toBeDefined();
    }
  });

  it("tells a lock manager built without the outage layer in a fixture", () => {
    const fixture =
      'const locks = createLockManager({ redis, namespace: "p", kinds: LOCK_KINDS });';
    expect(buildsLocksAsProduction(fixture)).toBe(false);
  });

  it("finds a wrong count in a fixture", () => {
    const fixture = "createShop returns 9 services, in 7 domain folders";
    expect(countBefore(fixture, "services")).not.toBe(services.length);
    expect(countBefore(fixture, "folders")).not.toBe(domainFolders().length);
  });
});
