// Catalog photos uploaded to Telegram for their file_id. The Bot API uploads only by sending, so
// each photo is sent to the operator group quietly and the message deleted again; the file_id
// stays valid for this bot. A path is read relative to the catalog file, and only where one is
// given: in a chat, a path would name a file on the bot's machine.
import path from "node:path";
import { type Api, InputFile } from "grammy";
import type { UploadPhoto } from "@orderbot/core/catalog-import";

export function createPhotoUploader(
  api: Api,
  chatId: bigint | number,
  baseDir: string | null,
): UploadPhoto {
  return async (photo) => {
    if (photo.kind === "path" && baseDir === null) throw new Error("no file is read here");
    const input =
      photo.kind === "url" ? photo.url : new InputFile(path.resolve(baseDir!, photo.path));
    const message = await api.sendPhoto(Number(chatId), input, { disable_notification: true });
    const fileId = message.photo.at(-1)?.file_id;
    await api.deleteMessage(Number(chatId), message.message_id).catch(() => undefined);
    if (!fileId) throw new Error("Telegram returned no photo");
    return fileId;
  };
}
