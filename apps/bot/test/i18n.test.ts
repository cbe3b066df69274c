import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OrderStatus } from "@orderbot/db";
import { createI18n, LOCALES_DIR } from "../src/bot/i18n.ts";
import { SETTING_KEYS } from "../src/callbacks/index.ts";
import { localeFromLanguageCode, LOCALES } from "../src/format/translate.ts";

/** Message ids and the variables each one uses, read from a .ftl file. */
function messages(locale: string): Map<string, Set<string>> {
  const dir = path.join(LOCALES_DIR, locale);
  const source = readdirSync(dir)
    .filter((file) => file.endsWith(".ftl"))
    .map((file) => readFileSync(path.join(dir, file), "utf8"))
    .join("\n");
  const result = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of source.split("\n")) {
    const id = /^([a-z][\w-]*) =/.exec(line)?.[1];
    if (id) result.set(id, (current = new Set()));
    for (const match of line.matchAll(/\{ \$(\w+) \}/g)) current?.add(match[1]!);
  }
  return result;
}

/** Every literal key passed to ctx.t / t in the source. */
function keysUsedInCode(): Set<string> {
  const keys = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else
        for (const m of readFileSync(file, "utf8").matchAll(/\bt\("([a-z][\w-]*)"/g))
          keys.add(m[1]!);
    }
  };
  walk(path.resolve(import.meta.dirname, "../src"));
  return keys;
}

describe("translations", () => {
  const en = messages("en");

  it.each(LOCALES.filter((l) => l !== "en"))(
    "%s has exactly the messages English has, with the same variables",
    (locale) => {
      const other = messages(locale);
      expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [id, variables] of en)
        expect([...other.get(id)!].sort(), id).toEqual([...variables].sort());
    },
  );

  it("has every message the code asks for, including the ones named at run time", () => {
    const dynamic = [
      ...Object.values(OrderStatus).map((s) => `status-${s}`),
      ...SETTING_KEYS.map((k) => `op-setting-${k}`),
      ...[
        "expired",
        "cancelled",
        "paid",
        "wrong-amount",
        "not-yours",
        "not-found",
        "busy",
        "unavailable",
      ].map((r) => `precheckout-${r}`),
      ...["cancelled", "expired", "paid"].map((r) => `pay-refused-${r}`),
    ];
    const missing = [...keysUsedInCode(), ...dynamic].filter((key) => !en.has(key));
    expect(missing).toEqual([]);
  });

  it.each(LOCALES)(
    "renders every %s message without Fluent errors or isolation marks",
    (locale) => {
      const i18n = createI18n();
      for (const [id, variables] of messages(locale)) {
        const text = i18n.t(
          locale,
          id,
          Object.fromEntries([...variables].map((v) => [v, `<${v}>`])),
        );
        expect(text, id).not.toMatch(/[\u2068\u2069]|\{\$|Unknown variable/);
        for (const v of variables) expect(text, id).toContain(`<${v}>`);
      }
    },
  );

  it("picks Chinese for any Chinese language_code and English otherwise", () => {
    expect(["zh", "zh-hans", "zh-TW", "ZH-CN"].map(localeFromLanguageCode)).toEqual([
      "zh",
      "zh",
      "zh",
      "zh",
    ]);
    expect(["en", "en-US", "de", "ru", undefined].map(localeFromLanguageCode)).toEqual([
      "en",
      "en",
      "en",
      "en",
      "en",
    ]);
  });
});
