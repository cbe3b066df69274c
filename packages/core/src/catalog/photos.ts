// A product's photo: an HTTP(S) URL Telegram downloads, or a file_id Telegram issued (an operator
// sent the photo to the bot). Checked here and by a CHECK constraint (migration
// 20261203020000_product_photos), so a card never fails to send because of what was stored.
import type { CoreDeps } from "../deps.ts";
import { productView, type ProductView } from "../views.ts";

/** Longest photo URL accepted (the constraint's limit too). */
export const PRODUCT_PHOTO_URL_MAX = 2048;

const FILE_ID = /^[A-Za-z0-9_-]{20,255}$/;

/** The photo as stored, or null when `input` is neither an HTTP(S) URL nor a file_id. */
export function parseProductPhoto(input: string): string | null {
  const value = input.trim();
  if (FILE_ID.test(value)) return value;
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.hostname === "" || url.username !== "" || url.password !== "") return null;
  return url.href.length <= PRODUCT_PHOTO_URL_MAX ? url.href : null;
}

export type SetProductPhotoResult =
  | { status: "ok"; product: ProductView }
  | { status: "invalid-photo" }
  | { status: "unknown-product" };

export type ProductPhotos = ReturnType<typeof createProductPhotos>;

export function createProductPhotos(deps: CoreDeps) {
  return {
    /** Sets (or, with null, removes) the photo shown on a product's card. */
    async set({
      sku,
      photo,
      actor,
    }: {
      sku: string;
      photo: string | null;
      actor: bigint;
    }): Promise<SetProductPhotoResult> {
      const stored = photo === null ? null : parseProductPhoto(photo);
      if (photo !== null && stored === null) return { status: "invalid-photo" };
      // One conditional statement: no read-then-write, and the photo is not part of what the
      // version column guards (stock and price), so it does not bump it.
      const rows = await deps.db.product.updateManyAndReturn({
        where: { sku },
        data: { photo: stored },
      });
      const row = rows[0];
      if (!row) return { status: "unknown-product" };
      deps.logger.info(
        { sku, actor: deps.mask(actor), kind: stored === null ? "none" : kindOf(stored) },
        "product photo set",
      );
      return { status: "ok", product: productView(row) };
    },
  };
}

const kindOf = (photo: string): "url" | "file_id" =>
  /^https?:\/\//.test(photo) ? "url" : "file_id";
