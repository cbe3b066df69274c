// Acceptance: a document a user sends reaches the bot with its file_id; getFile gives the
// file_path it downloads from at /file/bot<token>/<file_path>, as Telegram documents, and refuses
// unknown ids and files over the 20 MB bots may download.
import { describe, expect, it } from "vitest";
import { MAX_DOWNLOAD_BYTES, type FakeTelegram, type SimulatedUser } from "../src/index.ts";
import { rawCall } from "./support/raw.ts";
import { useTelegramWithAnn } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
useTelegramWithAnn({}, (opened) => ({ tg, ann } = opened));

interface TgFile {
  file_id: string;
  file_unique_id: string;
  file_size?: number;
  file_path?: string;
}

describe("documents, getFile and downloads", () => {
  it("delivers the document with its caption, and downloads its bytes by file_path", async () => {
    const sent = await ann.sendDocument({
      fileName: "codes.txt",
      content: "A-1\nB-2\n",
      mimeType: "text/plain",
      caption: "/codes GIFT",
    });
    const document = sent.message.document!;
    expect(document).toMatchObject({
      file_name: "codes.txt",
      mime_type: "text/plain",
      file_size: 8,
    });
    expect(sent.message.caption).toBe("/codes GIFT");
    expect(sent.message.caption_entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);

    const response = await rawCall(tg, "getFile", { file_id: document.file_id });
    expect(response.status).toBe(200);
    const file = response.body.result as TgFile;
    expect(file).toMatchObject({
      file_id: document.file_id,
      file_unique_id: document.file_unique_id,
      file_size: 8,
    });
    expect(file.file_path).toMatch(/^documents\/file_\d+\.txt$/);
    const download = await fetch(`${tg.apiRoot}/file/bot${tg.token}/${file.file_path}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("A-1\nB-2\n");
    // The same file_path on a second getFile.
    const again = await rawCall(tg, "getFile", { file_id: document.file_id });
    expect((again.body.result as TgFile).file_path).toBe(file.file_path);
  });

  it("refuses an unknown file_id, a missing one, another token's download and unknown paths", async () => {
    expect((await rawCall(tg, "getFile", { file_id: "nope" })).body).toMatchObject({
      ok: false,
      error_code: 400,
      description: "Bad Request: invalid file_id",
    });
    expect((await rawCall(tg, "getFile", {})).body).toMatchObject({ ok: false, error_code: 400 });
    const sent = await ann.sendDocument({ fileName: "a.csv", content: "x" });
    const file = (await rawCall(tg, "getFile", { file_id: sent.message.document!.file_id })).body
      .result as TgFile;
    expect((await fetch(`${tg.apiRoot}/file/bot1:other/${file.file_path}`)).status).toBe(404);
    expect((await fetch(`${tg.apiRoot}/file/bot${tg.token}/documents/none.txt`)).status).toBe(404);
  });

  it("refuses getFile for a file over 20 MB (bots may not download it)", async () => {
    const big = await ann.sendDocument({
      fileName: "big.txt",
      content: Buffer.alloc(MAX_DOWNLOAD_BYTES + 1, 0x41),
    });
    expect(big.message.document!.file_size).toBe(MAX_DOWNLOAD_BYTES + 1);
    expect(
      (await rawCall(tg, "getFile", { file_id: big.message.document!.file_id })).body,
    ).toMatchObject({
      ok: false,
      error_code: 400,
      description: "Bad Request: file is too big",
    });
    const fits = await ann.sendDocument({
      fileName: "fits.txt",
      content: Buffer.alloc(MAX_DOWNLOAD_BYTES, 0x41),
    });
    expect(
      (await rawCall(tg, "getFile", { file_id: fits.message.document!.file_id })).body.ok,
    ).toBe(true);
  });
});
