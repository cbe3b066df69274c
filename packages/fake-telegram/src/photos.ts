// Photos the way Telegram keeps them: every photo gets file_ids (one per size, all usable to send
// it again), and a photo argument is a file_id Telegram issued, an HTTP(S) URL it downloads, or an
// upload. The fake stores no pixels: a photo is its ids, sizes and where it came from.
import type { PhotoSize } from "@grammyjs/types";
import type { Args } from "./args.ts";
import { BotApiError, badRequest } from "./errors.ts";
import type { UploadedFile } from "./multipart.ts";

/** Telegram's limit for a photo sent by the bot (10 MB); larger uploads are refused. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

/** The sizes Telegram makes of every photo (thumbnail to full), widest last as in the Bot API. */
const SIZES = [
  { width: 90, height: 68 },
  { width: 320, height: 240 },
  { width: 800, height: 600 },
] as const;

export interface PhotoRecord {
  /** Where it came from: "url:<url>", "upload:<name>" or "user". */
  source: string;
  sizes: PhotoSize[];
}

/** The photos Telegram knows, by every file_id of every size. */
export class PhotoStore {
  private readonly byFileId = new Map<string, PhotoRecord>();
  private readonly byUrl = new Map<string, PhotoRecord>();
  private next = 1;

  /** A new photo with its sizes; each size has a file_id and a file_unique_id of its own. */
  create(source: string): PhotoRecord {
    const n = this.next++;
    const sizes = SIZES.map((size, i): PhotoSize => {
      const tag = `${n.toString(36).padStart(6, "0")}${i}`;
      return {
        file_id: `AgACAgIAAxkBAAIB${tag}PhotoFileIdOfTheFakeTelegram${i}`,
        file_unique_id: `AQAD${tag}`,
        width: size.width,
        height: size.height,
        file_size: 1_000 * (i + 1) * (i + 1),
      };
    });
    const record = { source, sizes };
    for (const size of sizes) this.byFileId.set(size.file_id, record);
    return record;
  }

  /** The photo a file_id names, if Telegram ever issued that id. */
  byId(fileId: string): PhotoRecord | undefined {
    return this.byFileId.get(fileId);
  }

  /**
   * The photo at a URL. Telegram downloads a URL once and caches it, so the same URL gives the
   * same file; hosts under the reserved `.invalid` TLD stand for a URL that cannot be fetched.
   */
  fromUrl(url: string): PhotoRecord {
    const known = this.byUrl.get(url);
    if (known) return known;
    if (new URL(url).hostname.endsWith(".invalid"))
      throw badRequest("failed to get HTTP URL content");
    const record = this.create(`url:${url}`);
    this.byUrl.set(url, record);
    return record;
  }
}

const isUpload = (value: unknown): value is UploadedFile =>
  typeof value === "object" &&
  value !== null &&
  "filename" in value &&
  "size" in value &&
  typeof (value as UploadedFile).size === "number";

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== "";
  } catch {
    return false;
  }
}

/**
 * Reads a photo argument: a file_id, an HTTP(S) URL, an upload in the field itself or, with
 * "attach://<name>", in another multipart field. What Telegram refuses, the fake refuses alike.
 */
export function readPhoto(
  photos: PhotoStore,
  args: Args,
  name: string,
  value?: unknown,
): PhotoRecord {
  const raw = value ?? args.raw(name);
  if (isUpload(raw)) return fromUpload(photos, raw);
  const text = typeof raw === "string" ? raw.trim() : "";
  if (text === "") throw badRequest("there is no photo in the request");
  if (text.startsWith("attach://")) {
    const attached = args.raw(text.slice("attach://".length));
    if (!isUpload(attached)) throw badRequest("there is no photo in the request");
    return fromUpload(photos, attached);
  }
  if (isHttpUrl(text)) return photos.fromUrl(text);
  const known = photos.byId(text);
  if (!known) throw badRequest("wrong file identifier/HTTP URL specified");
  return known;
}

function fromUpload(photos: PhotoStore, file: UploadedFile): PhotoRecord {
  if (file.size === 0) throw badRequest("file must be non-empty");
  if (file.size > MAX_PHOTO_BYTES) throw new BotApiError(413, "Request Entity Too Large");
  return photos.create(`upload:${file.filename}`);
}
