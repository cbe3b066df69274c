import { Composer, type CallbackQueryContext, type Filter } from "grammy";
import {
  type ResolveFindingResult,
  type StarReconciliation,
  REFUND_NOTE_MAX,
  type MarkRefundedResult,
  type PaymentRef,
  type PaymentService,
  type RetryRefundResult,
} from "@orderbot/core/payments";
import type { BotContext } from "../../bot/context.ts";
import { callbacks, type ReplyPrompts } from "@orderbot/conversation";
import type { Forbidden } from "@orderbot/core/rights";
import { respond } from "./guard.ts";
import { renderFindings, renderSection } from "./money-exceptions.ts";
import { refusalText, requireRight } from "./rights.ts";

/** Rows shown per section; the title says how many there are in all. */
const SHOWN = 10;

/** The last line of the bot's note prompt names the charge, the same in every language. */
const PROMPT_MARK = /🧾 (\S+)\s*$/u;

/** The commands of this feature, for the operator actions' filter. */
export const REFUND_COMMANDS = ["refunds", "refunded"] as const;

/** A reply to the bot's "note, please" prompt: marks that refund done (operators only). */
export function isRefundNoteReply(ctx: BotContext): boolean {
  const replied = ctx.message?.reply_to_message;
  return (
    ctx.message?.text !== undefined &&
    replied?.from?.id === ctx.me.id &&
    PROMPT_MARK.test(replied.text ?? "")
  );
}

function resolveText(ctx: BotContext, result: ResolveFindingResult | Forbidden): string {
  switch (result.status) {
    case "resolved":
      return ctx.t("op-finding-resolved", { charge: result.finding.telegramChargeId });
    case "already-resolved":
      return ctx.t("op-finding-already", { charge: result.finding.telegramChargeId });
    case "not-found":
    case "invalid":
      return ctx.t("op-finding-unknown");
    case "forbidden":
      return refusalText(ctx, result);
  }
}

function retryText(ctx: BotContext, result: RetryRefundResult): string {
  switch (result.status) {
    case "ok":
      return ctx.t("op-refund-retry-ok");
    case "waiting":
      return ctx.t("op-refund-retry-waiting");
    case "not-stars":
      return ctx.t("op-refund-retry-not-stars");
    case "already-refunded":
      return ctx.t("op-refund-already");
    case "not-owed":
      return ctx.t("op-refund-not-owed");
    case "not-found":
    case "invalid":
      return ctx.t("op-refund-unknown");
    case "forbidden":
      return refusalText(ctx, result);
  }
}

function markText(ctx: BotContext, result: MarkRefundedResult): string {
  switch (result.status) {
    case "ok":
      return ctx.t("op-refunded-ok", { charge: result.telegramChargeId });
    case "already-refunded":
      return ctx.t("op-refund-already");
    case "not-owed":
      return ctx.t("op-refund-not-owed");
    case "not-found":
      return ctx.t("op-refund-unknown");
    case "invalid":
      return ctx.t("op-refunded-too-long", { max: REFUND_NOTE_MAX });
    case "forbidden":
      return refusalText(ctx, result);
  }
}

type RefundsDeps = {
  payments: Pick<
    PaymentService,
    "moneyExceptions" | "owedRefund" | "retryRefund" | "markRefundedByHand"
  >;
  /** Stars ledger findings: an operator resolves one (who and when are recorded). */
  ledger: Pick<StarReconciliation, "resolveFinding">;
  /** With admins holding the rights table's right (rights.ts), the only ones who may act on money. */
  ownerIds: readonly bigint[];
  /** Mark asks for its note by reply: a plain message instead gets a hint (owed-reply.ts). */
  prompts: Pick<ReplyPrompts, "asked" | "answered">;
};

/**
 * /refunds: every refund owed that needs a person, with a button per row to send a refused Stars
 * refund again or to mark one made by hand (the bot then asks for an optional note by reply);
 * `/refunded CHARGE_ID [note]` is the typed equivalent. For the operator group's admins only (the
 * guard in index.ts). The listing is built from core's sections, so more kinds of money exception
 * appear in the same command.
 */
export function refundsFeature(deps: RefundsDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command("refunds", (ctx) => listExceptions(ctx, deps));
  feature.command("refunded", (ctx) => refundedCommand(ctx, deps));
  feature.callbackQuery(callbacks.refundRetry.pattern, (ctx) => retryButton(ctx, deps));
  feature.callbackQuery(callbacks.refundMark.pattern, (ctx) => markButton(ctx, deps));
  feature.callbackQuery(callbacks.findingResolve.pattern, (ctx) => resolveButton(ctx, deps));
  feature.on("message:text").filter(isRefundNoteReply, (ctx) => markWithNote(ctx, deps));
  return feature;
}

async function listExceptions(ctx: BotContext, deps: RefundsDeps): Promise<void> {
  const { sections, ledgerFindings } = await deps.payments.moneyExceptions({ limit: SHOWN });
  const rendered = sections.map((section) => renderSection(ctx, section));
  rendered.push(renderFindings(ctx, ledgerFindings));
  for (const { text, keyboard } of rendered)
    await ctx.reply(text, keyboard ? { reply_markup: keyboard } : {});
}

/** A refund made by hand, marked with its note. */
async function mark(
  ctx: BotContext,
  deps: RefundsDeps,
  ref: PaymentRef,
  note: string | null,
): Promise<void> {
  if (note !== null && note.length > REFUND_NOTE_MAX)
    return respond(ctx, ctx.t("op-refunded-too-long", { max: REFUND_NOTE_MAX }));
  const actor = await requireRight(ctx, "refund-mark", deps.ownerIds);
  if (!actor) return;
  const result = await deps.payments.markRefundedByHand({ ref, actor, note });
  await respond(ctx, markText(ctx, result));
}

/** `/refunded CHARGE [note]`: a refund made by hand, typed. */
async function refundedCommand(ctx: BotContext, deps: RefundsDeps): Promise<void> {
  const [charge, ...words] = (typeof ctx.match === "string" ? ctx.match : "").trim().split(/\s+/);
  if (!charge) return respond(ctx, ctx.t("op-refunded-usage"));
  if (ctx.chat && ctx.from) await deps.prompts.answered(ctx.chat.id, ctx.from.id);
  const note = words.join(" ").trim();
  await mark(ctx, deps, { telegramChargeId: charge }, note === "" ? null : note);
}

/** The reply to the note prompt marks the charge it names ("-": no note). */
async function markWithNote(ctx: Filter<BotContext, "message:text">, deps: RefundsDeps) {
  const charge = PROMPT_MARK.exec(ctx.message.reply_to_message?.text ?? "")?.[1];
  if (!charge) return;
  await deps.prompts.answered(ctx.chat.id, ctx.from.id);
  const text = ctx.message.text.trim();
  await mark(ctx, deps, { telegramChargeId: charge }, text === "-" || text === "" ? null : text);
}

async function retryButton(ctx: CallbackQueryContext<BotContext>, deps: RefundsDeps) {
  const data = callbacks.refundRetry.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const actor = await requireRight(ctx, "refund-retry", deps.ownerIds);
  if (!actor) return;
  const result = await deps.payments.retryRefund({ paymentId: data.paymentId }, actor);
  await respond(ctx, retryText(ctx, result));
}

/** Mark as refunded: asks for the note by reply, which marks it. */
async function markButton(ctx: CallbackQueryContext<BotContext>, deps: RefundsDeps) {
  const data = callbacks.refundMark.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  if (!(await requireRight(ctx, "refund-mark", deps.ownerIds))) return;
  const owed = await deps.payments.owedRefund(data.paymentId);
  if (!owed) return respond(ctx, ctx.t("op-refund-already"));
  await ctx.answerCallbackQuery();
  await ctx.reply(ctx.t("op-refund-note-prompt", { charge: owed.telegramChargeId }), {
    reply_markup: { force_reply: true },
  });
  if (ctx.chat)
    await deps.prompts.asked(ctx.chat.id, ctx.from.id, {
      kind: "refund-note",
      chargeId: owed.telegramChargeId,
    });
}

async function resolveButton(ctx: CallbackQueryContext<BotContext>, deps: RefundsDeps) {
  const data = callbacks.findingResolve.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const actor = await requireRight(ctx, "finding-resolve", deps.ownerIds);
  if (!actor) return;
  const result = await deps.ledger.resolveFinding(data.findingId, actor);
  await respond(ctx, resolveText(ctx, result));
}
