import { InlineKeyboard } from "grammy";
import type { OwedRefund } from "@orderbot/core/payments";
import { callbacks } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

/**
 * /refunds: a row of buttons per refund that needs a person, numbered as the listing numbers it.
 * A refused Stars refund can be sent again or marked done; one in another currency can only be
 * marked done (the provider refunds it); one on its way to Telegram needs nobody.
 */
export function refundsKeyboard(
  t: Translate,
  refunds: readonly { n: number; refund: OwedRefund }[],
): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  let rows = 0;
  for (const { n, refund } of refunds) {
    const { paymentId } = refund;
    if (refund.state.kind === "waiting-telegram") continue;
    if (rows++ > 0) keyboard.row();
    if (refund.state.kind === "refused")
      keyboard.text(t("btn-refund-retry", { n }), callbacks.refundRetry.encode({ paymentId }));
    keyboard.text(t("btn-refund-mark", { n }), callbacks.refundMark.encode({ paymentId }));
  }
  return rows > 0 ? keyboard : undefined;
}
