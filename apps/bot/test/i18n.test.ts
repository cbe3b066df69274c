import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FULFILMENT_STEPS } from "@orderbot/core/fulfilment";
import { type NotificationTemplate } from "@orderbot/core/outbox";
import { FINDING_KINDS, type RefundReason } from "@orderbot/core/payments";
import { OrderStatus } from "@orderbot/db";
import { createI18n, LOCALES_DIR } from "../src/bot/i18n.ts";
import { SETTING_KEYS } from "@orderbot/conversation";
import { FULFILMENT_COMMANDS } from "../src/features/operator/fulfilment.ts";
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
    for (const match of line.matchAll(/\{ \$(\w+) (?:\}|->)/g)) current?.add(match[1]!);
  }
  return result;
}

/** Messages that select on a variable (`{ $x -> ...`): only one variant is rendered. */
function selectors(locale: string): Set<string> {
  const dir = path.join(LOCALES_DIR, locale);
  const result = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ftl"))) {
    let current: string | undefined;
    for (const line of readFileSync(path.join(dir, file), "utf8").split("\n")) {
      current = /^([a-z][\w-]*) =/.exec(line)?.[1] ?? current;
      if (current && /\{ \$\w+ ->/.test(line)) result.add(current);
    }
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
      ...["expired", "cancelled", "paid", "wrong-amount", "not-found", "busy", "unavailable"].map(
        (r) => `precheckout-${r}`,
      ),
      ...["cancelled", "expired", "paid"].map((r) => `pay-refused-${r}`),
      ...FULFILMENT_COMMANDS.map((c) => `op-fulfil-usage-${c}`),
      ...FULFILMENT_STEPS.map((s) => `btn-fulfil-${s.toLowerCase()}`),
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
        // A message that selects on a variable shows only one variant's variables.
        if (!selectors(locale).has(id))
          for (const v of variables) expect(text, id).toContain(`<${v}>`);
      }
    },
  );

  it("counts through the language's plural rules: one item, two items", () => {
    const i18n = createI18n();
    const plural =
      /\b1 (?:[a-z]+ )?(?:items|alerts|requests|matches|attempts|codes|characters|hours|minutes|products|orders)\b/;
    for (const [id, variables] of en) {
      const ones = Object.fromEntries([...variables].map((v) => [v, 1]));
      expect(i18n.t("en", id, ones), id).not.toMatch(plural);
    }
    const cart = (locale: string, units: number) => [
      i18n.t(locale, "cart-total", { total: "9 ⭐", units }),
      i18n.t(locale, "cart-added", { title: "Tea", qty: units, units }),
    ];
    expect(cart("en", 1)).toEqual([
      "Total: 9 ⭐ (1 item)",
      "Added to your cart: Tea, now 1. The cart has 1 item.",
    ]);
    expect(cart("en", 2)).toEqual([
      "Total: 9 ⭐ (2 items)",
      "Added to your cart: Tea, now 2. The cart has 2 items.",
    ]);
    expect(cart("zh", 1)).toEqual([
      "合计：9 ⭐（共 1 件）",
      "已加入购物车：Tea，现为 1 件。购物车共 1 件。",
    ]);
  });

  it("has a text for every notice the worker sends, in every language", () => {
    // Keyed by core's template type: a template added there and not here fails to compile.
    const templates: Record<NotificationTemplate, true> = {
      "order-expired": true,
      "payment-received": true,
      "order-refunded": true,
      "digital-delivery": true,
      "order-status": true,
      "order-card": true,
      "payment-refunded": true,
      "operator-order-paid": true,
      "operator-refund-needed": true,
      "operator-refunded-outside": true,
      "operator-ledger-finding": true,
      "support-answer": true,
      "operator-support-request": true,
      "operator-low-stock": true,
      "operator-dead-letter": true,
      "operator-daily-report": true,
    };
    for (const locale of LOCALES) {
      const missing = Object.keys(templates).filter((t) => !messages(locale).has(t));
      expect(missing, locale).toEqual([]);
    }
  });

  it("has every word the worker looks up, literal or by a reason or finding kind", () => {
    // Keyed by core's types: a reason or kind added there and not here fails to compile.
    const reasons: Record<RefundReason, true> = {
      "late-out-of-stock": true,
      "late-promo-used-up": true,
      "already-paid": true,
      "amount-mismatch": true,
      "not-yours": true,
      "unknown-order": true,
      operator: true,
      "pool-short": true,
      duplicate: true,
    };
    const notices = path.resolve(import.meta.dirname, "../../../packages/conversation/src/notices");
    const literal = readdirSync(notices)
      .map((file) => readFileSync(path.join(notices, file), "utf8"))
      .flatMap((source) => [...source.matchAll(/\b(?:format|word)\(locale, "([a-z][\w-]*)"/g)])
      .map((m) => m[1]!);
    expect(literal.length).toBeGreaterThan(0);
    const wanted = [
      ...literal,
      ...Object.keys(reasons).map((r) => `refund-reason-${r}`),
      ...FINDING_KINDS.map((k) => `finding-${k}`),
    ];
    for (const locale of LOCALES)
      expect(
        wanted.filter((key) => !messages(locale).has(key)),
        locale,
      ).toEqual([]);
  });

  it("writes Chinese with full-width punctuation throughout", () => {
    const dir = path.join(LOCALES_DIR, "zh");
    const halfWidth: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ftl"))) {
      for (const line of readFileSync(path.join(dir, file), "utf8").split("\n")) {
        if (line.startsWith("#")) continue;
        // The text only: not the message id, placeables ({ ... }) or variant keys ([yes]).
        const text = line
          .replace(/^[a-z][\w-]* =/, "")
          .replace(/\{[^}]*\}/g, "")
          .replace(/^\s*\*?\[[\w-]+\]/, "")
          // Latin terms keep their own punctuation: http(s).
          .replace(/[A-Za-z]+\([A-Za-z]+\)/g, "");
        const found = /[,:;()!?]/.exec(text);
        if (found && /\p{Script=Han}/u.test(text)) halfWidth.push(`${file}: ${line.trim()}`);
      }
    }
    expect(halfWidth).toEqual([]);
  });

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
