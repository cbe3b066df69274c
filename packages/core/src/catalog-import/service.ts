// Loading a shop's catalog from a CSV file (docs/catalog.md): a dry run that says what the file
// would create, change or refuse, and the import itself. A file with any refused row changes
// nothing; a file imported twice changes nothing the second time.
import type { CoreDeps } from "../deps.ts";
import type { Problem } from "../problems.ts";
import { refusalOf, type Actor, type Forbidden } from "../rights/may-do.ts";
import { createApplyRow } from "./apply.ts";
import { readCatalogCsv, type Refusal } from "./csv.ts";
import type { UploadPhoto } from "./photo.ts";
import { planCatalog, type ChangedField, type PlannedRow } from "./plan.ts";
import { parseCatalogRow, type CatalogRow } from "./row.ts";

export interface CatalogImportInput {
  csv: string;
  /** Only say what would happen. */
  dryRun: boolean;
  /** Who imports: an operator with the catalog-import right, or the owner at the command line. */
  actor: Actor;
  /** Uploads photos given as a URL or a path (docs/catalog.md); none: URLs kept, paths refused. */
  uploadPhoto?: UploadPhoto;
}

export interface CatalogImportSummary {
  created: string[];
  changed: { sku: string; fields: ChangedField[] }[];
  unchanged: number;
  /** Products another writer changed (or created) between the plan and the write: not applied. */
  conflicts: string[];
}

export type CatalogImportResult =
  /** The actor may not import (it sets prices): nothing read, nothing changed. */
  | Forbidden
  /** Nothing changed: each refused row with its line and reason. */
  | { status: "refused"; refused: Refusal[] }
  /** The dry run: what the import would do. */
  | ({ status: "planned" } & CatalogImportSummary)
  | ({ status: "applied" } & CatalogImportSummary);

export type CatalogImport = ReturnType<typeof createCatalogImport>;

export function createCatalogImport(deps: CoreDeps) {
  const applyRow = createApplyRow(deps);
  return async function importCatalog({
    csv,
    dryRun,
    actor,
    uploadPhoto,
  }: CatalogImportInput): Promise<CatalogImportResult> {
    const forbidden = refusalOf("catalog-import", actor);
    if (forbidden) return forbidden;
    const rows = checkedRows(csv);
    if (!rows.ok) return refusedResult(deps, rows.refused);
    // The rows that parsed are planned even beside refused ones, so that one pass names every refusal.
    const plan = await planCatalog(deps.db, rows.rows, uploadPhoto !== undefined);
    const refused = [...rows.refused, ...(plan.ok ? [] : plan.refused)];
    if (!plan.ok || refused.length) return refusedResult(deps, refused);
    const summary = summarise(plan.rows);
    if (dryRun) return { status: "planned", ...summary };
    const failed = uploadPhoto ? await uploadPhotos(plan.rows, uploadPhoto) : [];
    if (failed.length) return refusedResult(deps, failed);
    for (const planned of plan.rows) {
      if (planned.action === "unchanged") continue;
      if ((await applyRow(planned, actor)) === "conflict") summary.conflicts.push(planned.row.sku);
    }
    deps.metrics.operations.inc({ op: "import_catalog", outcome: "applied" });
    deps.logger.info(
      {
        operator: deps.mask(actor.id),
        created: summary.created.length,
        changed: summary.changed.length,
        conflicts: summary.conflicts.length,
      },
      "catalog imported",
    );
    return { status: "applied", ...summary };
  };
}

/** `ok: false`: not a catalog file at all. Otherwise the rows that parsed, and the rows refused. */
type CheckedRows =
  { ok: true; rows: CatalogRow[]; refused: Refusal[] } | { ok: false; refused: Refusal[] };

function checkedRows(csv: string): CheckedRows {
  const read = readCatalogCsv(csv);
  if (!read.ok) return read;
  const refused: Refusal[] = [...read.refused];
  const rows: CatalogRow[] = [];
  for (const { line, fields } of read.rows) {
    const parsed = parseCatalogRow(line, fields);
    if (parsed.ok) rows.push(parsed.row);
    else
      refused.push({ line, ...(fields.sku ? { sku: fields.sku } : {}), problem: parsed.problem });
  }
  if (read.rows.length + read.refused.length === 0)
    refused.push({ line: 1, problem: { field: "file", rule: "min-items", bound: 1 } });
  return { ok: true, rows, refused };
}

function refusedResult(deps: CoreDeps, refused: Refusal[]): CatalogImportResult {
  refused.sort((a, b) => a.line - b.line);
  deps.metrics.operations.inc({ op: "import_catalog", outcome: "refused" });
  return { status: "refused", refused };
}

function summarise(rows: readonly PlannedRow[]): CatalogImportSummary {
  const summary: CatalogImportSummary = { created: [], changed: [], unchanged: 0, conflicts: [] };
  for (const planned of rows) {
    if (planned.action === "create") summary.created.push(planned.row.sku);
    else if (planned.action === "change")
      summary.changed.push({ sku: planned.row.sku, fields: planned.fields });
    else summary.unchanged++;
  }
  return summary;
}

/** Runs the planned uploads, each source once, before anything is written; the rows refused. */
async function uploadPhotos(rows: PlannedRow[], upload: UploadPhoto): Promise<Refusal[]> {
  const refused: Refusal[] = [];
  const done = new Map<string, Promise<string>>();
  for (const planned of rows) {
    if (planned.action === "unchanged" || !("upload" in planned.photo)) continue;
    const { upload: what, source } = planned.photo;
    if (!done.has(source)) done.set(source, upload(what));
    try {
      planned.photo = { photo: await done.get(source)!, source };
    } catch {
      const problem: Problem = { field: "photo", rule: "upload-failed" };
      refused.push({ line: planned.row.line, sku: planned.row.sku, problem });
    }
  }
  return refused;
}
