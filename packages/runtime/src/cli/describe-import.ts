// What `npm run catalog` prints for an import's result: one line per kind of outcome, and one per
// refused row with its line and reason, in English (the conversation's words).
import { problemText } from "@orderbot/conversation";
import type { CatalogImportResult } from "@orderbot/core/catalog-import";

export function describeImport(result: CatalogImportResult): string[] {
  if (result.status === "forbidden") return [`refused: the ${result.action} right is missing`];
  if (result.status === "refused")
    return [
      `refused, nothing changed (${result.refused.length} row${result.refused.length === 1 ? "" : "s"}):`,
      ...result.refused.map(
        ({ line, sku, problem }) =>
          `  line ${line}${sku ? ` (${sku})` : ""}: ${problemText("en", problem)}`,
      ),
    ];
  const verb = result.status === "planned" ? "would " : "";
  const lines = [
    `${verb}create ${result.created.length}${list(result.created)}`,
    `${verb}change ${result.changed.length}${list(
      result.changed.map(({ sku, fields }) => `${sku} (${fields.join(", ")})`),
    )}`,
    `unchanged ${result.unchanged}`,
  ];
  if (result.conflicts.length)
    lines.push(`changed meanwhile, not applied: ${result.conflicts.join(", ")} (run it again)`);
  return lines;
}

const list = (items: readonly string[]) => (items.length ? `: ${items.join(", ")}` : "");
