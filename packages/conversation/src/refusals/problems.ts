// Core refuses input with problems as data (field, rule, bound); this words them in the reader's
// language, so that a Chinese group reads Chinese.
import type { Problem } from "@orderbot/core";
import type { Locale } from "../languages.ts";
import { format, word } from "../notices/fluent.ts";

/** A field by its glossary word: "items.0.sku" is read as its last named part, "sku". */
function fieldWord(locale: Locale, field: string): string {
  const name = field.split(".").findLast((part) => !/^\d+$/.test(part)) ?? field;
  return word(locale, `refusal-field-${name}`, name);
}

/** One problem as a phrase: "SKU: letters, digits, '.', '_' and '-' only". */
export function problemText(locale: Locale, problem: Problem): string {
  const args: Record<string, string | number> = {
    field: fieldWord(locale, problem.field),
    rule: problem.rule,
  };
  if (problem.bound !== undefined) args.bound = problem.bound;
  // A rule about a field named by the bound ("after startsAt") names it in the glossary's word.
  if (problem.rule === "after" && typeof problem.bound === "string")
    args.bound = fieldWord(locale, problem.bound);
  return format(locale, "refusal-problem", args);
}

/** Every problem of a refusal, joined in the reader's way ("; " or "；"). */
export function problemsText(locale: Locale, problems: readonly Problem[]): string {
  return problems.map((p) => problemText(locale, p)).join(locale === "zh" ? "；" : "; ");
}
