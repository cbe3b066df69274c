// Why input was refused, as data: which field, which rule, which bound. Whoever shows a refusal
// (the chat, the Mini App, a log) words it; core holds no sentence about it.
import type { z } from "zod";

export const PROBLEM_RULES = [
  /** Missing. */
  "required",
  /** Not the kind of value the field takes (a word where a number goes). */
  "type",
  /** Not a whole number. */
  "integer",
  /** Below `bound` / above `bound`. */
  "min",
  "max",
  /** Fewer / more than `bound` characters. */
  "min-length",
  "max-length",
  /** Fewer / more than `bound` entries. */
  "min-items",
  "max-items",
  /** Not of the form `bound` names (FORMATS), or of a form without a name. */
  "format",
  /** Not one of `bound` (the choices, joined by "|"). */
  "one-of",
  /** Named twice: `bound` is what. */
  "duplicate",
  /** Names no such thing: `bound` is the name. */
  "unknown",
  /** A product not on sale: `bound` is its sku. */
  "not-on-sale",
  /** Products in several currencies cannot share one order. */
  "mixed-currencies",
  /** Must come after the field `bound`. */
  "after",
  /** A kind priced in the wrong currency (digital goods in XTR, physical in the provider's). */
  "kind-currency",
  /** An amount no single invoice may ask for (payments/invoice-limits.ts). */
  "invoice-amount",
  /** Set once: it stays `bound`, what orders were placed in. */
  "fixed",
  /** Not a CSV file. */
  "not-csv",
  /** A header other than `bound`, the columns in their order. */
  "header",
  /** A row with another number of fields than the header's `bound`. */
  "columns",
  /** A file to upload, and no bot token to upload it with. */
  "needs-bot-token",
  /** Telegram did not take the upload. */
  "upload-failed",
] as const;
export type ProblemRule = (typeof PROBLEM_RULES)[number];

/** The forms a "format" problem names: each schema's pattern, by what it is. */
export const FORMATS = [
  "sku",
  "currency",
  "slug",
  "promo-code",
  "country",
  "option-id",
  "order-id",
  "group-chat-id",
  "telegram-id",
  "username",
  "request-id",
  "amount",
  "photo",
] as const;
export type Format = (typeof FORMATS)[number];

export interface Problem {
  /** The field's path in the input, dot-separated ("items.0.sku"); "" for the input as a whole. */
  field: string;
  rule: ProblemRule;
  bound?: number | string;
}

const isRule = (value: unknown): value is ProblemRule =>
  (PROBLEM_RULES as readonly unknown[]).includes(value);
const isFormat = (value: unknown): value is Format =>
  (FORMATS as readonly unknown[]).includes(value);

const withBound = (field: string, rule: ProblemRule, bound: unknown): Problem =>
  typeof bound === "number" || typeof bound === "string"
    ? { field, rule, bound }
    : typeof bound === "bigint"
      ? { field, rule, bound: Number(bound) }
      : { field, rule };

/** A zod issue as a problem. Custom issues carry theirs in `params` (see `issueParams`). */
export function problemOf(issue: z.ZodError["issues"][number]): Problem {
  const field = issue.path.map(String).join(".");
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return { field, rule: "required" };
      return { field, rule: issue.expected === "int" ? "integer" : "type" };
    case "too_small":
    case "too_big": {
      const limit = issue.code === "too_small" ? "min" : "max";
      const unit = { string: "-length", array: "-items", set: "-items" } as Record<string, string>;
      const rule = `${limit}${unit[issue.origin] ?? ""}` as ProblemRule;
      return withBound(field, rule, issue.code === "too_small" ? issue.minimum : issue.maximum);
    }
    case "invalid_format":
      return isFormat(issue.message)
        ? { field, rule: "format", bound: issue.message }
        : { field, rule: "format" };
    case "invalid_value":
      return { field, rule: "one-of", bound: issue.values.map(String).join("|") };
    case "custom": {
      const params = (issue.params ?? {}) as { rule?: unknown; bound?: unknown };
      return withBound(field, isRule(params.rule) ? params.rule : "format", params.bound);
    }
    case "invalid_element":
    case "invalid_key":
    case "invalid_union":
    case "not_multiple_of":
    case "unrecognized_keys":
      // Checks the shop's schemas do not make: a form not met, unnamed.
      return { field, rule: "format" };
  }
}

/** The `params` of a custom zod issue, so that `problemOf` reads its rule and bound back. */
export const issueParams = (rule: ProblemRule, bound?: number | string) => ({
  message: rule,
  params: bound === undefined ? { rule } : { rule, bound },
});
