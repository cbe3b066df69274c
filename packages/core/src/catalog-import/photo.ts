// A catalog row's photo against the product's: a file_id is stored as given; a URL or a path is
// uploaded to Telegram once (by the caller's uploader: core knows no chat) and its file_id kept
// with the source, so the same source imported again uploads nothing. Without an uploader a URL
// is stored as the URL (Telegram downloads it at each send) and a path is refused.
import type { ProductModel } from "@orderbot/db";
import type { PhotoCell } from "./row.ts";

/** What to upload: the caller reads a path (relative to the file) or hands Telegram the URL. */
export type PhotoUpload = { kind: "url"; url: string } | { kind: "path"; path: string };

/** Uploads a photo and returns the file_id Telegram issued; throws when Telegram refuses it. */
export type UploadPhoto = (photo: PhotoUpload) => Promise<string>;

/** The photo to store: known now, or known once `upload` has run. */
export type PlannedPhoto =
  { photo: string | null; source: string | null } | { upload: PhotoUpload; source: string };

export function planPhoto(
  cell: PhotoCell,
  product: ProductModel | undefined,
  canUpload: boolean,
): PlannedPhoto | "needs-uploader" {
  if (cell === null) return { photo: null, source: null };
  if (cell.kind === "file-id") return { photo: cell.fileId, source: null };
  if (!canUpload) return cell.kind === "url" ? { photo: cell.url, source: null } : "needs-uploader";
  const source = cell.kind === "url" ? cell.url : cell.path;
  if (product?.photoSource === source && product.photo !== null)
    return { photo: product.photo, source };
  return { upload: cell, source };
}

/** Whether the planned photo differs from the product's. */
export const photoChanged = (planned: PlannedPhoto, product: ProductModel): boolean =>
  "upload" in planned || planned.photo !== product.photo || planned.source !== product.photoSource;
