// /import: a catalog file sent to the operator group with the caption /import. The bot answers
// with the dry run (docs/catalog.md) and, when there is something to do, an Import button; the
// press downloads the file again from the message it answered and imports it. Both need the
// catalog-import right (rights.ts): an import sets prices.
import { Composer, InlineKeyboard } from "grammy";
import type { CatalogImport, CatalogImportResult } from "@orderbot/core/catalog-import";
import { createPhotoUploader } from "@orderbot/runtime";
import { callbacks, problemText } from "@orderbot/conversation";
import type { BotContext } from "../../bot/context.ts";
import type { Actor } from "@orderbot/core/rights";
import { respond } from "./guard.ts";
import { refusalText, requireRight } from "./rights.ts";
import { downloadFile } from "./telegram-file.ts";

export const IMPORT_COMMANDS = ["import"] as const;

/** Far above a shop's catalog (5,000 rows), far below what could stall the bot. */
const MAX_CATALOG_BYTES = 2 * 1024 * 1024;

const CAPTION = /^\/import(?:@(\w+))?\s*$/i;

/** A document whose caption is /import (the operator filter lets it through). */
export const isImportDocument = (ctx: BotContext): boolean => {
  const match = ctx.msg?.document ? CAPTION.exec(ctx.msg.caption ?? "") : null;
  return match !== null && (!match[1] || match[1].toLowerCase() === ctx.me.username.toLowerCase());
};

type ImportDeps = { importCatalog: CatalogImport; ownerIds: readonly bigint[] };

export function catalogImportFeature(deps: ImportDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("import", (ctx) => respond(ctx, ctx.t("op-import-usage")));
  feature.filter(isImportDocument, async (ctx) => {
    const actor = await requireRight(ctx, "catalog-import", deps.ownerIds);
    if (!actor) return;
    const message = ctx.msg!;
    const result = await importFile(ctx, deps, actor, message.document!.file_id, true);
    if (!result) return;
    const keyboard =
      result.status === "planned" && (result.created.length || result.changed.length)
        ? new InlineKeyboard().text(
            ctx.t("btn-import"),
            callbacks.catalogImport.encode({ messageId: message.message_id }),
          )
        : undefined;
    await ctx.reply(describe(ctx, result), {
      reply_parameters: { message_id: message.message_id },
      ...(keyboard ? { reply_markup: keyboard } : {}),
    });
  });
  feature.callbackQuery(callbacks.catalogImport.pattern, async (ctx) => {
    const actor = await requireRight(ctx, "catalog-import", deps.ownerIds);
    if (!actor) return;
    const data = callbacks.catalogImport.decode(ctx.callbackQuery.data);
    const source = ctx.callbackQuery.message?.reply_to_message;
    if (!data || source?.message_id !== data.messageId || !source.document)
      return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    const result = await importFile(ctx, deps, actor, source.document.file_id, false);
    if (!result) return;
    await ctx.answerCallbackQuery();
    // In the group, not a dialog: what was imported stays on record beside the file.
    await ctx.reply(describe(ctx, result), {
      reply_parameters: { message_id: source.message_id, allow_sending_without_reply: true },
    });
  });
  return feature;
}

async function importFile(
  ctx: BotContext,
  deps: ImportDeps,
  actor: Actor,
  fileId: string,
  dryRun: boolean,
): Promise<CatalogImportResult | null> {
  const csv = await downloadFile(ctx, fileId, readText, null);
  if (csv === null) {
    await respond(ctx, ctx.t("op-import-unreadable"));
    return null;
  }
  // Photos by URL are uploaded through this group; no path is read (null).
  const uploadPhoto = createPhotoUploader(ctx.api, ctx.chat!.id, null);
  return deps.importCatalog({ csv, dryRun, actor, uploadPhoto });
}

/** UTF-8 text of at most MAX_CATALOG_BYTES; null past it or when it is not UTF-8. */
async function readText(body: ReadableStream<Uint8Array>): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > MAX_CATALOG_BYTES) return null;
    chunks.push(chunk);
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
}

function describe(ctx: BotContext, result: CatalogImportResult): string {
  if (result.status === "forbidden") return refusalText(ctx, result);
  if (result.status === "refused")
    return ctx.t("op-import-refused", {
      count: result.refused.length,
      rows: result.refused
        .slice(0, 20)
        .map((r) => `${r.line}${r.sku ? ` ${r.sku}` : ""}: ${problemText(ctx.locale, r.problem)}`)
        .join("\n"),
    });
  const figures = {
    created: result.created.length,
    changed: result.changed.length,
    unchanged: result.unchanged,
    skus: [...result.created, ...result.changed.map((c) => c.sku)].slice(0, 20).join(", "),
    conflicts: result.conflicts.join(", "),
  };
  if (result.status === "planned") return ctx.t("op-import-planned", figures);
  return ctx.t(result.conflicts.length ? "op-import-conflicts" : "op-import-applied", figures);
}
