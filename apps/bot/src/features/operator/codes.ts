import { problemsText } from "@orderbot/conversation";
import { Composer } from "grammy";
import { type CatalogService } from "@orderbot/core/catalog";
import {
  MAX_CODE_LENGTH,
  MAX_CODES_PER_BATCH,
  type DeliveryService,
  type LoadCodesResult,
} from "@orderbot/core/delivery";
import type { BotContext } from "../../bot/context.ts";
import { MAX_FILE_BYTES, readCodesFile, type CodesFile } from "./codes-file.ts";
import { actorOf, respond } from "./guard.ts";
import { downloadFile } from "./telegram-file.ts";
import { knownSku } from "./sku.ts";

export const CODES_COMMANDS = ["codes"] as const;

const CAPTION_COMMAND = /^\/codes(?:@(\w+))?(?:\s+([\s\S]*))?$/i;

/** The words after /codes in a document's caption, or null when the caption is not that command. */
function captionArgs(ctx: BotContext): string[] | null {
  const caption = ctx.msg?.document ? ctx.msg.caption : undefined;
  const command = caption === undefined ? null : CAPTION_COMMAND.exec(caption);
  if (!command) return null;
  const addressed = command[1];
  if (addressed && addressed.toLowerCase() !== ctx.me.username.toLowerCase()) return null;
  return (command[2] ?? "").split(/\s+/).filter(Boolean);
}

/** A .txt or .csv document sent with the caption /codes SKU (the operator filter lets it through). */
export const isCodesDocument = (ctx: BotContext): boolean => captionArgs(ctx) !== null;

/** "csv" for a .csv file, "lines" for a .txt one, null for anything else. */
function fileFormat(
  fileName: string | undefined,
  mimeType: string | undefined,
): "lines" | "csv" | null {
  const name = fileName?.toLowerCase() ?? "";
  if (name.endsWith(".csv") || mimeType === "text/csv") return "csv";
  if (name.endsWith(".txt") || mimeType === "text/plain") return "lines";
  return null;
}

type CodesDeps = { catalog: CatalogService; delivery: DeliveryService };

/**
 * /codes SKU alone: the product's pool (unused, delivered, revoked). /codes SKU with codes on the
 * following lines, or a .txt/.csv document with the caption /codes SKU: the codes join the pool
 * (core's delivery/load-codes.ts), once per command message, so a re-delivered update adds
 * nothing. Replies give counts only: codes are secrets, never echoed to the group.
 */
export function codesFeature(deps: CodesDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("codes", (ctx) => codesCommand(ctx, deps));
  feature.filter(isCodesDocument, (ctx) => codesDocument(ctx, deps));
  return feature;
}

/** /codes SKU, alone (the pool) or with codes on the following lines. */
async function codesCommand(ctx: BotContext, deps: CodesDeps): Promise<void> {
  const text = typeof ctx.match === "string" ? ctx.match : "";
  const [first = "", ...rest] = text.split(/\r?\n/);
  const words = first.split(/\s+/).filter(Boolean);
  if (words.length === 0) return respond(ctx, ctx.t("op-codes-usage"));
  const sku = await knownSku(ctx, deps.catalog, words[0]!);
  if (sku === null) return;
  // Codes may follow the SKU on its line too ("/codes GIFT A-1 B-2" is not a list: refused).
  if (words.length > 1) return respond(ctx, ctx.t("op-codes-usage"));
  if (rest.every((line) => line.trim() === "")) return showPool(ctx, deps.delivery, sku);
  await load(ctx, deps.delivery, sku, rest.join("\n"), "lines");
}

/** A .txt or .csv document with the caption /codes SKU. */
async function codesDocument(ctx: BotContext, deps: CodesDeps): Promise<void> {
  const words = captionArgs(ctx) ?? [];
  const document = ctx.msg?.document;
  if (words.length !== 1 || !document) return respond(ctx, ctx.t("op-codes-usage"));
  const sku = await knownSku(ctx, deps.catalog, words[0]!);
  if (sku === null) return;
  const format = fileFormat(document.file_name, document.mime_type);
  // By its size first: nothing is downloaded for a file that cannot be loaded.
  if (format === null || (document.file_size ?? 0) > MAX_FILE_BYTES)
    return respond(ctx, ctx.t("op-codes-file-refused"));
  const file = await download(ctx, document.file_id, format);
  switch (file.status) {
    case "ok":
      return load(ctx, deps.delivery, sku, file.text, format);
    case "too-big":
      return respond(ctx, ctx.t("op-codes-file-refused"));
    case "too-many":
      return respond(ctx, ctx.t("op-codes-file-too-many", { max: MAX_CODES_PER_BATCH }));
    case "unreadable":
      return respond(ctx, ctx.t("op-codes-file-unreadable"));
  }
}

async function showPool(ctx: BotContext, delivery: DeliveryService, sku: string): Promise<void> {
  const pool = await delivery.pool(sku);
  if (!pool) return respond(ctx, ctx.t("op-unknown-sku", { sku }));
  if (pool.kind !== "DIGITAL") return respond(ctx, ctx.t("op-codes-not-digital", { sku }));
  await respond(ctx, ctx.t("op-codes-pool", { ...pool }));
}

async function load(
  ctx: BotContext,
  delivery: DeliveryService,
  sku: string,
  text: string,
  format: "lines" | "csv",
): Promise<void> {
  // The command message names the batch: Telegram re-delivering it must not load it twice.
  const batchId = `codes:${ctx.chat!.id}:${ctx.msg!.message_id}`;
  const result = await delivery.loadCodes({
    sku,
    text,
    format,
    batchId,
    actor: actorOf(ctx),
  });
  await respond(ctx, reply(ctx, result, sku));
}

function reply(ctx: BotContext, result: LoadCodesResult, sku: string): string {
  switch (result.status) {
    case "ok":
      return ctx.t(result.replayed ? "op-codes-replayed" : "op-codes-loaded", {
        sku: result.sku,
        added: result.added,
        known: result.known,
        repeated: result.repeated,
      });
    case "refused":
      switch (result.lines.problem) {
        case "too-long":
          return ctx.t("op-codes-too-long", {
            lines: lineList(result.lines.lines),
            max: MAX_CODE_LENGTH,
          });
        case "too-many":
          return ctx.t("op-codes-too-many", {
            count: result.lines.count,
            max: MAX_CODES_PER_BATCH,
          });
        case "empty":
          return ctx.t("op-codes-usage");
      }
      break;
    case "not-digital":
      return ctx.t("op-codes-not-digital", { sku: result.sku });
    case "not-found":
      return ctx.t("op-unknown-sku", { sku });
    case "busy":
      return ctx.t("op-busy");
    case "unavailable":
      return ctx.t("op-unavailable");
    case "invalid":
      return ctx.t("op-invalid", { problems: problemsText(ctx.locale, result.problems) });
  }
  return ctx.t("op-codes-usage");
}

/** "2, 5, 9": the first line numbers, and how many more ("2, 5, 9 … (+12)"). */
function lineList(lines: number[]): string {
  const shown = lines.slice(0, 20).join(", ");
  return lines.length > 20 ? `${shown} … (+${lines.length - 20})` : shown;
}

/** The document's text, read within the limits (codes-file.ts); a file past 20 MB is "too-big". */
function download(ctx: BotContext, fileId: string, format: "lines" | "csv"): Promise<CodesFile> {
  return downloadFile(ctx, fileId, (body) => readCodesFile(body, format), {
    status: "unreadable",
  });
}
