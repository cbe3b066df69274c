// Files users send as documents, the way Telegram keeps them: a file_id per file, and getFile
// giving a file_path that downloads it from /file/bot<token>/<file_path>. Telegram lets bots
// download files of up to 20 MB; getFile refuses bigger ones ("file is too big").
import type { Document } from "@grammyjs/types";
import { badRequest } from "./errors.ts";

/** The largest file a bot may download through getFile (the Bot API: "up to 20MB in size"). */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

export interface StoredFile {
  document: Document;
  content: Buffer;
  /** Set by the first getFile: where the file downloads from. */
  filePath?: string;
}

/** The Bot API's File object, what getFile returns. */
export interface TgFile {
  file_id: string;
  file_unique_id: string;
  file_size?: number;
  file_path?: string;
}

export class DocumentStore {
  private readonly byFileId = new Map<string, StoredFile>();
  private readonly byPath = new Map<string, StoredFile>();
  private next = 1;

  /** A document a user sends: its bytes, its name and MIME type as the client reports them. */
  create(fileName: string, content: Buffer, mimeType?: string): Document {
    const tag = (this.next++).toString(36).padStart(6, "0");
    const document: Document = {
      file_id: `BQACAgIAAxkBAAIC${tag}DocumentFileIdOfTheFakeTelegram`,
      file_unique_id: `AgAD${tag}`,
      file_name: fileName,
      ...(mimeType ? { mime_type: mimeType } : {}),
      file_size: content.length,
    };
    this.byFileId.set(document.file_id, { document, content });
    return document;
  }

  /** getFile: the file's File object with a file_path; refused for unknown ids and over 20 MB. */
  getFile(fileId: string): TgFile {
    const stored = this.byFileId.get(fileId);
    if (!stored) throw badRequest("invalid file_id");
    if (stored.content.length > MAX_DOWNLOAD_BYTES) throw badRequest("file is too big");
    if (!stored.filePath) {
      const extension = /\.([A-Za-z0-9]{1,8})$/.exec(stored.document.file_name ?? "")?.[1];
      stored.filePath = `documents/file_${this.byPath.size}${extension ? `.${extension}` : ""}`;
      this.byPath.set(stored.filePath, stored);
    }
    return {
      file_id: stored.document.file_id,
      file_unique_id: stored.document.file_unique_id,
      file_size: stored.content.length,
      file_path: stored.filePath,
    };
  }

  /** The bytes at a file_path getFile gave out; undefined for any other path. */
  download(filePath: string): Buffer | undefined {
    return this.byPath.get(filePath)?.content;
  }
}
