import { Composer, type InlineKeyboard } from "grammy";
import {
  formatMoney,
  type LedgerFinding,
  type LedgerFindingsSection,
  type ResolveFindingResult,
  type StarReconciliation,
  REFUND_NOTE_MAX,
  type MarkRefundedResult,
  type MoneySection,
  type OwedRefund,
  type PaymentRef,
  type PaymentService,
  type RetryRefundResult,
} from "@orderbot/core";
import type { BotContext } from "../../bot/context.ts";
import { callbacks } from "../../callbacks/index.ts";
import { ledgerFindingsKeyboard } from "../../keyboards/ledger-findings.ts";
import { refundsKeyboard } from "../../keyboards/refunds.ts";
import { actorOf, respond } from "./guard.ts";
import { requireRight } from "./rights.ts";

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

function ageText(ctx: BotContext, since: Date): string {
  const minutes = Math.max(0, Math.floor((Date.now() - since.getTime()) / 60_000));
  if (minutes < 120) return ctx.t("op-age-minutes", { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return ctx.t("op-age-hours", { n: hours });
  return ctx.t("op-age-days", { n: Math.floor(hours / 24) });
}

function stateText(ctx: BotContext, refund: OwedRefund): string {
  switch (refund.state.kind) {
    case "waiting-telegram":
      return ctx.t("op-refund-state-waiting");
    case "refused":
      return ctx.t("op-refund-state-refused", { error: refund.state.error || "?" });
    case "by-hand":
      return ctx.t("op-refund-state-by-hand");
  }
}

interface Rendered {
  text: string;
  keyboard: InlineKeyboard | undefined;
}

function findingLine(ctx: BotContext, n: number, finding: LedgerFinding): string {
  const amount = (value: number | null) => (value === null ? "-" : formatMoney(value, "XTR"));
  return ctx.t("op-finding-line", {
    n,
    kind: ctx.t(`op-finding-${finding.kind}`),
    charge: finding.telegramChargeId,
    telegram: amount(finding.telegramAmount),
    shop: amount(finding.shopAmount),
    age: ageText(ctx, finding.foundAt),
  });
}

/**
 * One section of the listing. A new kind of money exception (core's MoneySection) gets its case
 * here: its text, and its rows' buttons if it has any.
 */
function renderSection(ctx: BotContext, section: MoneySection): Rendered {
  switch (section.kind) {
    case "refunds": {
      if (section.total === 0) return { text: ctx.t("op-refunds-empty"), keyboard: undefined };
      const buttons = section.refunds.map((refund, i) => ({ n: i + 1, refund }));
      const lines = buttons.map(({ n, refund }) =>
        ctx.t("op-refunds-line", {
          n,
          amount: formatMoney(refund.amountMinor, refund.currency),
          order: refund.orderId
            ? ctx.t("op-refunds-order", { id: refund.orderId })
            : ctx.t("op-refunds-no-order"),
          age: ageText(ctx, refund.createdAt),
          state: stateText(ctx, refund),
        }),
      );
      const more = section.total - section.refunds.length;
      if (more > 0) lines.push(ctx.t("op-refunds-more", { more }));
      return {
        text: [ctx.t("op-refunds-title", { total: section.total }), ...lines].join("\n"),
        keyboard: refundsKeyboard(ctx.t, buttons),
      };
    }
  }
}

/** The Stars ledger findings nobody has resolved, each with its Resolve button. */
function renderFindings(ctx: BotContext, section: LedgerFindingsSection): Rendered {
  if (section.total === 0) return { text: ctx.t("op-findings-empty"), keyboard: undefined };
  const numbered = section.findings.map((finding, i) => ({ n: i + 1, finding }));
  const lines = numbered.map(({ n, finding }) => findingLine(ctx, n, finding));
  const more = section.total - section.findings.length;
  if (more > 0) lines.push(ctx.t("op-refunds-more", { more }));
  return {
    text: [ctx.t("op-findings-title", { total: section.total }), ...lines].join("\n"),
    keyboard: ledgerFindingsKeyboard(
      ctx.t,
      numbered.map(({ n, finding }) => ({ n, findingId: finding.id })),
    ),
  };
}

function resolveText(ctx: BotContext, result: ResolveFindingResult): string {
  switch (result.status) {
    case "resolved":
      return ctx.t("op-finding-resolved", { charge: result.finding.telegramChargeId });
    case "already-resolved":
      return ctx.t("op-finding-already", { charge: result.finding.telegramChargeId });
    case "not-found":
    case "invalid":
      return ctx.t("op-finding-unknown");
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
  }
}

/**
 * /refunds: every refund owed that needs a person, with a button per row to send a refused Stars
 * refund again or to mark one made by hand (the bot then asks for an optional note by reply);
 * `/refunded CHARGE_ID [note]` is the typed equivalent. For the operator group's admins only (the
 * guard in index.ts). The listing is built from core's sections, so more kinds of money exception
 * appear in the same command.
 */
export function refundsFeature(deps: {
  payments: Pick<
    PaymentService,
    "moneyExceptions" | "owedRefund" | "retryRefund" | "markRefundedByHand"
  >;
  /** Stars ledger findings: an operator resolves one (who and when are recorded). */
  ledger: Pick<StarReconciliation, "resolveFinding">;
  /** With admins holding the rights table's right (rights.ts), the only ones who may act on money. */
  ownerIds: readonly bigint[];
}): Composer<BotContext> {
  const feature = new Composer<BotContext>();

  async function mark(ctx: BotContext, ref: PaymentRef, note: string | null): Promise<void> {
    if (note !== null && note.length > REFUND_NOTE_MAX)
      return respond(ctx, ctx.t("op-refunded-too-long", { max: REFUND_NOTE_MAX }));
    if (!(await requireRight(ctx, "refund-mark", deps.ownerIds))) return;
    const result = await deps.payments.markRefundedByHand({ ref, actor: actorOf(ctx), note });
    await respond(ctx, markText(ctx, result));
  }

  feature.command("refunds", async (ctx) => {
    const { sections, ledgerFindings } = await deps.payments.moneyExceptions({ limit: SHOWN });
    const rendered = sections.map((section) => renderSection(ctx, section));
    rendered.push(renderFindings(ctx, ledgerFindings));
    for (const { text, keyboard } of rendered)
      await ctx.reply(text, keyboard ? { reply_markup: keyboard } : {});
  });

  feature.command("refunded", async (ctx) => {
    const [charge, ...words] = (typeof ctx.match === "string" ? ctx.match : "").trim().split(/\s+/);
    if (!charge) return respond(ctx, ctx.t("op-refunded-usage"));
    const note = words.join(" ").trim();
    await mark(ctx, { telegramChargeId: charge }, note === "" ? null : note);
  });

  feature.callbackQuery(callbacks.refundRetry.pattern, async (ctx) => {
    const data = callbacks.refundRetry.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    if (!(await requireRight(ctx, "refund-retry", deps.ownerIds))) return;
    const result = await deps.payments.retryRefund({ paymentId: data.paymentId }, actorOf(ctx));
    await respond(ctx, retryText(ctx, result));
  });

  feature.callbackQuery(callbacks.refundMark.pattern, async (ctx) => {
    const data = callbacks.refundMark.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    if (!(await requireRight(ctx, "refund-mark", deps.ownerIds))) return;
    const owed = await deps.payments.owedRefund(data.paymentId);
    if (!owed) return respond(ctx, ctx.t("op-refund-already"));
    await ctx.answerCallbackQuery();
    await ctx.reply(ctx.t("op-refund-note-prompt", { charge: owed.telegramChargeId }), {
      reply_markup: { force_reply: true },
    });
  });

  feature.callbackQuery(callbacks.findingResolve.pattern, async (ctx) => {
    const data = callbacks.findingResolve.decode(ctx.callbackQuery.data);
    if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
    if (!(await requireRight(ctx, "finding-resolve", deps.ownerIds))) return;
    const result = await deps.ledger.resolveFinding(data.findingId, actorOf(ctx));
    await respond(ctx, resolveText(ctx, result));
  });

  feature.on("message:text").filter(isRefundNoteReply, async (ctx) => {
    const charge = PROMPT_MARK.exec(ctx.message.reply_to_message?.text ?? "")?.[1];
    if (!charge) return;
    const text = ctx.message.text.trim();
    await mark(ctx, { telegramChargeId: charge }, text === "-" || text === "" ? null : text);
  });

  return feature;
}
