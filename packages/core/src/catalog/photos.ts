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
  | { status: "unknown-product" }
  /** The product is no longer at `expectedVersion`: nothing changed; `product` is as it is now. */
  | { status: "conflict"; product: ProductView };

export interface SetProductPhotoInput {
  sku: string;
  photo: string | null;
  actor: bigint;
  /** The product version the caller saw: a product changed since is refused, not changed. */
  expectedVersion?: number | undefined;
}

export interface ProductPhotos {
  /** Sets (or, with null, removes) the photo shown on a product's card. */
  set(input: SetProductPhotoInput): Promise<SetProductPhotoResult>;
}

export function createProductPhotos(deps: CoreDeps): ProductPhotos {
  const missed = (sku: string) => missedIn(deps, sku);
  return {
    async set({ sku, photo, actor, expectedVersion }) {
      const stored = photo === null ? null : parseProductPhoto(photo);
      if (photo !== null && stored === null) return { status: "invalid-photo" };
      // One conditional statement, no read-then-write; like every write of a product it bumps the
      // version, so a caller holding an older one is told.
      const rows = await deps.db.product.updateManyAndReturn({
        where: { sku, ...(expectedVersion === undefined ? {} : { version: expectedVersion }) },
        data: { photo: stored, version: { increment: 1 } },
      });
      const row = rows[0];
      if (!row) return missed(sku);
      deps.logger.info(
        { sku, actor: deps.mask(actor), kind: stored === null ? "none" : kindOf(stored) },
        "product photo set",
      );
      return { status: "ok", product: productView(row) };
    },
  };
}

/** Why the update matched no row: no such product, or it moved past the expected version. */
async function missedIn(deps: CoreDeps, sku: string): Promise<SetProductPhotoResult> {
  const current = await deps.db.product.findUnique({ where: { sku } });
  return current
    ? { status: "conflict", product: productView(current) }
    : { status: "unknown-product" };
}

const kindOf = (photo: string): "url" | "file_id" =>
  /^https?:\/\//.test(photo) ? "url" : "file_id";
