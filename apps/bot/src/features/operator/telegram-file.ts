// A document an operator sent, downloaded: getFile for its file_path, then the download URL the
// Bot API documents (<api root>/file/bot<token>/<file_path>). The URL holds the token: never logged
// or shown. `read` takes the body within its own limits.
import type { BotContext } from "../../bot/context.ts";

/** Bots may download files of up to 20 MB (the Bot API's getFile). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** The Bot API's own server, when TELEGRAM_API_ROOT points nowhere else. */
const DEFAULT_API_ROOT = "https://api.telegram.org";

/** `read`'s answer, or `unreadable` when Telegram refuses, the file is too big, or reading throws. */
export async function downloadFile<T>(
  ctx: BotContext,
  fileId: string,
  read: (body: ReadableStream<Uint8Array>) => Promise<T>,
  unreadable: T,
): Promise<T> {
  try {
    const file = await ctx.api.getFile(fileId);
    if (!file.file_path || (file.file_size ?? 0) > MAX_FILE_BYTES) return unreadable;
    const root = ctx.api.options?.apiRoot ?? DEFAULT_API_ROOT;
    const response = await fetch(`${root}/file/bot${ctx.api.token}/${file.file_path}`, {
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok || !response.body) return unreadable;
    return await read(response.body);
  } catch {
    return unreadable;
  }
}
