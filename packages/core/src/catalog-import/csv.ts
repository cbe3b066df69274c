// A catalog file as rows: csv-parse reads the CSV (quotes, BOM, line breaks inside quotes); this
// file only checks the header and keeps each row's line for the refusals.
import { CsvError, parse } from "csv-parse/sync";
import type { Problem } from "../problems.ts";

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

/** A refused row (or, on line 1, the file): the problem as data, worded by whoever shows it. */
export interface Refusal {
  line: number;
  sku?: string;
  problem: Problem;
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
    return { ok: false, refused: [{ line, problem: { field: "file", rule: "not-csv" } }] };
  }
  if (!headerIsRight(text)) {
    const problem: Problem = { field: "header", rule: "header", bound: CATALOG_COLUMNS.join(",") };
    return { ok: false, refused: [{ line: 1, problem }] };
  }
  if (records.length > CATALOG_MAX_ROWS) {
    const problem: Problem = { field: "file", rule: "max-items", bound: CATALOG_MAX_ROWS };
    return { ok: false, refused: [{ line: 1, problem }] };
  }
  const refused: Refusal[] = [];
  const rows: CsvRow[] = [];
  for (const { record, info } of records) {
    const count = Object.keys(record).length;
    if (info.error !== undefined || count !== CATALOG_COLUMNS.length) {
      const problem: Problem = { field: "row", rule: "columns", bound: CATALOG_COLUMNS.length };
      refused.push({ line: info.lines, problem });
    } else rows.push({ line: info.lines, fields: record as Record<CatalogColumn, string> });
  }
  return { ok: true, rows, refused };
}

/** The header must name every column, each once, and nothing else. */
function headerIsRight(text: string): boolean {
  const [names = []] = parse(text.replace(/^\uFEFF/, ""), { to_line: 1, trim: true }) as string[][];
  const seen = new Set(names.map((name) => name.toLowerCase()));
  return (
    names.length === CATALOG_COLUMNS.length && CATALOG_COLUMNS.every((column) => seen.has(column))
  );
}
