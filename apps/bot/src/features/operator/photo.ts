import { Composer, GrammyError } from "grammy";
import { parseProductPhoto, type CatalogService, type ProductPhotos } from "@orderbot/core/catalog";
import type { BotContext } from "../../bot/context.ts";
import { actorOf, respond } from "./guard.ts";

export const PHOTO_COMMANDS = ["photo"] as const;

const CAPTION_COMMAND = /^\/photo(?:@(\w+))?(?:\s+([\s\S]*))?$/i;

/**
 * The words after /photo in a photo's caption, or null when the caption is not that command.
 * grammY's command() reads only texts, so a photo sent with the command is recognised here.
 */
function captionArgs(ctx: BotContext): string[] | null {
  const caption = ctx.msg?.photo ? ctx.msg.caption : undefined;
  const command = caption === undefined ? null : CAPTION_COMMAND.exec(caption);
  if (!command) return null;
  const addressed = command[1];
  if (addressed && addressed.toLowerCase() !== ctx.me.username.toLowerCase()) return null;
  return (command[2] ?? "").split(/\s+/).filter(Boolean);
}

/** A photo sent with the caption /photo SKU (the operator filter lets it through). */
export const isPhotoCaptionCommand = (ctx: BotContext): boolean => captionArgs(ctx) !== null;

/** The words after the command, in a text or in a photo's caption. */
function args(ctx: BotContext): string[] {
  return (
    captionArgs(ctx) ??
    (typeof ctx.match === "string" ? ctx.match.split(/\s+/).filter(Boolean) : [])
  );
}

/**
 * /photo SKU URL, or a photo sent with the caption /photo SKU: the picture on a product's card.
 * /photo SKU none removes it. A URL is first sent back to the group as a preview, so a picture
 * Telegram cannot load is refused here, and no customer ever gets a card that fails to show.
 */
export function photoFeature(deps: {
  catalog: CatalogService;
  photos: ProductPhotos;
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  const setPhoto = async (ctx: BotContext) => {
    const [sku, given, ...rest] = args(ctx);
    const sent = ctx.msg?.photo?.at(-1)?.file_id;
    if (!sku || rest.length > 0 || (given === undefined) === (sent === undefined))
      return respond(ctx, ctx.t("op-photo-usage"));
    const product = await deps.catalog.get({ sku });
    if (!product) return respond(ctx, ctx.t("op-unknown-sku", { sku }));
    const actor = BigInt(actorOf(ctx));

    if (given?.toLowerCase() === "none") {
      const result = await deps.photos.set({ sku, photo: null, actor });
      if (result.status !== "ok") return respond(ctx, ctx.t("op-unknown-sku", { sku }));
      return respond(ctx, ctx.t("op-photo-removed", { sku: product.sku }));
    }
    const photo = sent ?? parseProductPhoto(given ?? "");
    if (photo === null) return respond(ctx, ctx.t("op-photo-invalid"));
    if (sent === undefined && !(await previewed(ctx, photo, product.sku))) return;
    const result = await deps.photos.set({ sku, photo, actor });
    if (result.status === "invalid-photo") return respond(ctx, ctx.t("op-photo-invalid"));
    if (result.status === "unknown-product") return respond(ctx, ctx.t("op-unknown-sku", { sku }));
    if (sent !== undefined) await respond(ctx, ctx.t("op-photo-set", { sku: product.sku }));
  };
  feature.command("photo", setPhoto);
  feature.filter(isPhotoCaptionCommand, setPhoto);

  return feature;
}

/** Sends the picture at `url` to the group as the confirmation; false (and says so) if refused. */
async function previewed(ctx: BotContext, url: string, sku: string): Promise<boolean> {
  try {
    await ctx.replyWithPhoto(url, {
      caption: ctx.t("op-photo-set", { sku }),
      ...(ctx.msg
        ? {
            reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true },
          }
        : {}),
    });
    return true;
  } catch (error) {
    if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
    ctx.logger.info({ sku, reason: error.description }, "product photo refused by Telegram");
    await respond(ctx, ctx.t("op-photo-unreachable"));
    return false;
  }
}
