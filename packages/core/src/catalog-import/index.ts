// @orderbot/core/catalog-import: a shop's catalog from a CSV file, with a dry run.
export {
  createCatalogImport,
  type CatalogImport,
  type CatalogImportInput,
  type CatalogImportResult,
  type CatalogImportSummary,
} from "./service.ts";
export { CATALOG_COLUMNS, type Refusal } from "./csv.ts";
export type { ChangedField } from "./plan.ts";
export type { PhotoUpload, UploadPhoto } from "./photo.ts";
