// The operator group at its flood limit: Telegram answers every message to the group with a 429
// whose retry_after is longer than the bots wait, while the operator restocks.
// Each command must get one reply saying what it did: its update never fails for a reply (so it is
// not run again to answer "applied already"), and a reply that met the limit goes out through the
// worker's outbox after it.
import { setTimeout as sleep } from "node:timers/promises";
import type { InvariantResult, StockCommand } from "@orderbot/testkit";
import { until, type Fault, type FaultContext } from "../fault.ts";

const STOCK_OK = /: stock -?\d+ → -?\d+\./;

export function groupAtFloodLimit(
  at: number,
  options = { seconds: 5, retryAfter: 8, commands: 3 },
): Fault {
  let refused = 0;
  return {
    label: "operator group at its flood limit",
    happened: () => refused > 0,
    async run(ctx) {
      await ctx.at(at);
      const { kit, operator } = ctx.env.shop;
      const limit = kit.faults.set({
        method: "sendMessage",
        chatId: operator.group.id,
        rate429: 1,
        retryAfter: options.retryAfter,
      });
      const skus = ctx.env.catalog.slice(0, options.commands).map((p) => p.sku);
      const before = operator.commands.length;
      const commands = Promise.all(skus.map((sku) => operator.stock(sku, "+1")));
      // The limit holds until every command's reply has met it, and a while after.
      const refusedReply = (messageId: number) =>
        kit
          .callsTo("sendMessage")
          .some((call) => call.fault === "429" && quoted(call.params) === messageId);
      const mine = () => operator.commands.slice(before).filter((c) => skus.includes(c.sku));
      await until(
        () => mine().length >= skus.length && mine().every((c) => refusedReply(c.messageId)),
        60_000,
      );
      await sleep(options.seconds * 1000);
      limit.remove();
      const sent = await commands;
      refused = limit.injected;
      ctx.note(
        `the group refused ${refused} messages with 429 (retry_after ${options.retryAfter} s) while the operator sent ${sent.length} /stock commands`,
      );
      ctx.checkAfterSettle(() => answeredOnce(ctx, sent));
    },
  };
}

/** The message a sendMessage quotes (reply_parameters, sent as an object or as JSON). */
function quoted(params: Record<string, unknown>): number | undefined {
  const raw = params.reply_parameters;
  const value = (typeof raw === "string" ? JSON.parse(raw) : raw) as
    { message_id?: number } | undefined;
  return value?.message_id;
}

/**
 * Every command answered once, with what it did: never a second run's "applied already" (a run
 * whose reply failed used to fail its update, and Telegram delivered it again).
 */
export async function answeredOnce(
  ctx: FaultContext,
  commands: StockCommand[],
): Promise<InvariantResult> {
  const kit = ctx.env.shop.kit;
  const problems: string[] = [];
  for (const c of commands) {
    const replies = kit
      .chat(ctx.env.shop.operator.group)
      .botMessages.filter((m) => m.reply_to_message?.message_id === c.messageId && m.text)
      .map((m) => m.text!);
    if (replies.length !== 1 || !STOCK_OK.test(replies[0]!))
      problems.push(`/stock ${c.sku} ${c.change}: replies ${JSON.stringify(replies)}`);
  }
  return {
    name: `at the group's flood limit: ${commands.length - problems.length} of ${commands.length} commands answered once, with what they did`,
    ok: problems.length === 0,
    violations: problems.length,
    examples: problems.slice(0, 5),
  };
}
