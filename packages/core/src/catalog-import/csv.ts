// A catalog file as rows: csv-parse reads the CSV (quotes, BOM, line breaks inside quotes); this
// file only checks the header and keeps each row's line for the refusals.
import { CsvError, parse } from "csv-parse/sync";

/** The columns of a catalog file, in the order the sample uses; `photo` may be left empty. */
export const CATALOG_COLUMNS = [
  "sku",
  "title_en",
  "title_zh",
  "category",
  "price",
  "currency",
  "kind",
  "stock",
  "photo",
] as const;

export type CatalogColumn = (typeof CATALOG_COLUMNS)[number];

/** Largest file accepted: far above a shop's catalog, far below what could stall a process. */
export const CATALOG_MAX_ROWS = 5_000;

export interface CsvRow {
  /** The file's line the row ends on (1 is the header). */
  line: number;
  fields: Record<CatalogColumn, string>;
}

export interface Refusal {
  line: number;
  sku?: string;
  reason: string;
}

/** Not a catalog file at all; or its rows, with those of the wrong width refused. */
export type ReadCsvResult =
  { ok: true; rows: CsvRow[]; refused: Refusal[] } | { ok: false; refused: Refusal[] };

export function readCatalogCsv(text: string): ReadCsvResult {
  let records: { record: Record<string, string>; info: { lines: number; error?: unknown } }[];
  try {
    records = parse(text, {
      bom: true,
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines ?? 1;
    return { ok: false, refused: [{ line, reason: `not a CSV file: ${error.message}` }] };
  }
  const header = headerProblem(text);
  if (header) return { ok: false, refused: [{ line: 1, reason: header }] };
  if (records.length > CATALOG_MAX_ROWS)
    return { ok: false, refused: [{ line: 1, reason: `more than ${CATALOG_MAX_ROWS} rows` }] };
  const refused: Refusal[] = [];
  const rows: CsvRow[] = [];
  for (const { record, info } of records) {
    const count = Object.keys(record).length;
    if (info.error !== undefined || count !== CATALOG_COLUMNS.length) {
      refused.push({
        line: info.lines,
        reason: `has a different number of fields than the header's ${CATALOG_COLUMNS.length}`,
      });
    } else rows.push({ line: info.lines, fields: record as Record<CatalogColumn, string> });
  }
  return { ok: true, rows, refused };
}

/** The header must name every column, each once, and nothing else. */
function headerProblem(text: string): string | null {
  const [names = []] = parse(text.replace(/^\uFEFF/, ""), { to_line: 1, trim: true }) as string[][];
  const seen = names.map((name) => name.toLowerCase());
  const missing = CATALOG_COLUMNS.filter((column) => !seen.includes(column));
  const unknown = seen.filter((name) => !(CATALOG_COLUMNS as readonly string[]).includes(name));
  if (missing.length === 0 && unknown.length === 0 && seen.length === CATALOG_COLUMNS.length)
    return null;
  return `the header must be ${CATALOG_COLUMNS.join(",")}${
    missing.length ? `; missing: ${missing.join(", ")}` : ""
  }${unknown.length ? `; unknown: ${unknown.join(", ")}` : ""}`;
}
