/** The longest code, key or link (the CHECK of migration 20261204020000_digital_items). */
export const MAX_CODE_LENGTH = 3500;
/** The most codes one /codes batch loads: a file bigger than this is split by the operator. */
export const MAX_CODES_PER_BATCH = 5000;

export type CodeLines =
  | { ok: true; codes: string[]; repeated: number }
  | { ok: false; problem: "empty" }
  | { ok: false; problem: "too-many"; count: number }
  | { ok: false; problem: "too-long"; lines: number[] };

/**
 * An operator's list of codes, one a line (a message or a .txt/.csv file): lines trimmed, blank
 * ones skipped, repeats within the list counted once. Refused whole when a line is longer than
 * MAX_CODE_LENGTH (naming the line numbers, from 1) or the list has more than MAX_CODES_PER_BATCH
 * codes: a batch is applied all or nothing. A .csv file gives the first field of each line
 * (RFC 4180 quoting: "a,b" is one field, "" a quote), so a spreadsheet's export loads as it is.
 */
export function parseCodeLines(text: string, format: "lines" | "csv" = "lines"): CodeLines {
  const tooLong: number[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const code = codeOfLine(raw, format);
    if (code === "") return;
    if (code.length > MAX_CODE_LENGTH) tooLong.push(index + 1);
    else if (seen.has(code)) repeated++;
    else seen.add(code);
  });
  if (tooLong.length > 0) return { ok: false, problem: "too-long", lines: tooLong };
  if (seen.size === 0) return { ok: false, problem: "empty" };
  if (seen.size > MAX_CODES_PER_BATCH) return { ok: false, problem: "too-many", count: seen.size };
  return { ok: true, codes: [...seen], repeated };
}

/** The code one line of a list holds ("" for none): the line, or a .csv line's first field, trimmed. */
export function codeOfLine(line: string, format: "lines" | "csv"): string {
  return (format === "csv" ? firstCsvField(line) : line).trim();
}

/** The first field of a CSV line: up to the first comma, or a quoted field with "" for a quote. */
function firstCsvField(line: string): string {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('"')) return trimmed.split(",", 1)[0] ?? "";
  let field = "";
  for (let i = 1; i < trimmed.length; i++) {
    const char = trimmed[i]!;
    if (char !== '"') field += char;
    else if (trimmed[i + 1] === '"') {
      field += '"';
      i++;
    } else break;
  }
  return field;
}
