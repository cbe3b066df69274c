import { InlineKeyboard } from "grammy";
import { callbacks } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

/** /refunds, ledger findings: a Resolve button per finding, numbered as the listing numbers it. */
export function ledgerFindingsKeyboard(
  t: Translate,
  findings: readonly { n: number; findingId: number }[],
): InlineKeyboard | undefined {
  if (findings.length === 0) return undefined;
  const keyboard = new InlineKeyboard();
  findings.forEach(({ n, findingId }, i) => {
    if (i > 0 && i % 3 === 0) keyboard.row();
    keyboard.text(t("btn-finding-resolve", { n }), callbacks.findingResolve.encode({ findingId }));
  });
  return keyboard;
}
