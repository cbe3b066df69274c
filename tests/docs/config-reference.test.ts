// docs/configuration.md is the config schemas, rendered: it must match them, every setting must
// say what it means, and .env.example must name only settings that exist.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { renderConfigReference, undescribedSettings } from "../../scripts/lib/config-reference.ts";
import { configSources } from "../../scripts/lib/config-sources.ts";

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");
const sources = configSources();
const settings = new Set(
  [sources.shared, sources.bot, sources.worker].flatMap((doc) => Object.keys(doc.properties)),
);

function envExampleKeys(): Set<string> {
  return new Set(
    [...read(".env.example").matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!),
  );
}

describe("the configuration reference", () => {
  it("is docs/configuration.md as the schemas render it (npm run docs:config)", () => {
    expect(read("docs/configuration.md")).toBe(renderConfigReference(sources));
  });

  it("has a description for every setting of every schema", () => {
    expect(settings.size).toBeGreaterThan(30);
    expect(undescribedSettings([sources.shared, sources.bot, sources.worker])).toEqual([]);
  });

  it("names a setting added without a description, and refuses to render it", () => {
    const fixture = {
      properties: { DESCRIBED: { description: "Says what it does." }, NEW_SETTING: {} },
      required: [],
    };
    expect(undescribedSettings([fixture])).toEqual(["NEW_SETTING"]);
    expect(() => renderConfigReference({ ...sources, worker: fixture })).toThrow(/NEW_SETTING/);
  });

  it("names in .env.example only variables a schema has", () => {
    expect([...envExampleKeys()].filter((key) => !settings.has(key))).toEqual([]);
  });

  it("documents in .env.example every setting the processes read", () => {
    expect([...settings].filter((key) => !envExampleKeys().has(key))).toEqual([]);
  });
});
