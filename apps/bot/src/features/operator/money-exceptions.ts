import type { InlineKeyboard } from "grammy";
import { formatMoney } from "@orderbot/conversation";
import {
  type LedgerFinding,
  type LedgerFindingsSection,
  type MoneySection,
  type OwedRefund,
} from "@orderbot/core/payments";
import type { BotContext } from "../../bot/context.ts";
import { ledgerFindingsKeyboard } from "../../keyboards/ledger-findings.ts";
import { refundsKeyboard } from "../../keyboards/refunds.ts";

// The /refunds listing: core's money exceptions, a message per section, with their buttons.

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
export function renderSection(ctx: BotContext, section: MoneySection): Rendered {
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
export function renderFindings(ctx: BotContext, section: LedgerFindingsSection): Rendered {
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
