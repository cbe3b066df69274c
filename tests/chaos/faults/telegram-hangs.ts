// Telegram accepts calls and never answers, for longer than the clients' timeout: first the
// operator group's messages (so that the bot's replies are in flight when it starts), then every
// call, getUpdates included, under the sale's load. Each call must be given up at its deadline:
// a reply then goes out once, through the relay, and the poller polls again within seconds.
import { setTimeout as sleep } from "node:timers/promises";
import type { InvariantResult } from "@orderbot/testkit";
import { until, type Fault } from "../fault.ts";
import { answeredOnce } from "./group-flood.ts";

/** The polling bot's TELEGRAM_CALL_TIMEOUT_MS in this scenario; the workers' send timeout is 2 s too. */
export const HANG_CALL_TIMEOUT_MS = 2_000;
/** How long polling may take to resume once Telegram answers: a deadline, a pause, and room. */
const RESUME_BOUND_MS = 4 * HANG_CALL_TIMEOUT_MS;

export function telegramHangs(
  at: number,
  options = { hangMs: 5_000, commands: 2, busyWith: 40 },
): Fault {
  let hung = { replies: 0, polls: 0 };
  return {
    label: "Telegram hangs past the clients' timeout",
    happened: () => hung.replies > 0 && hung.polls > 0,
    async run(ctx) {
      await ctx.at(at);
      const { kit, operator } = ctx.env.shop;
      const start = Date.now();
      const replies = kit.faults.set({
        method: "sendMessage",
        chatId: operator.group.id,
        hang: true,
      });
      const skus = ctx.env.catalog.slice(0, options.commands).map((p) => p.sku);
      const commands = Promise.all(skus.map((sku) => operator.stock(sku, "+1")));
      await until(() => replies.injected >= skus.length, 30_000);
      // Then everything, once the poller is busy with the crowd's updates.
      const delivered = kit.deliveries.length;
      await until(() => kit.deliveries.length >= delivered + options.busyWith, 30_000);
      const everything = kit.faults.set({ hang: true });
      await sleep(options.hangMs);
      everything.remove();
      replies.remove();
      const ended = Date.now();
      const polled = () => kit.callsTo("getUpdates").filter((c) => c.at >= start);
      await until(() => polled().some((c) => c.ok && c.at >= ended), 30_000);
      const resumed = polled().find((c) => c.ok && c.at >= ended)?.at;
      hung = {
        replies: replies.injected,
        polls: polled().filter((c) => c.fault === "hang").length,
      };
      ctx.note(
        `${hung.replies} group messages hung, then every call for ${options.hangMs / 1000} s (${everything.injected} calls, ${hung.polls} polls); polling resumed ${resumed ? `${((resumed - ended) / 1000).toFixed(1)} s` : "never"} after`,
      );
      const sent = await commands;
      ctx.checkAfterSettle(() => answeredOnce(ctx, sent));
      ctx.checkAfterSettle(async () => resumedWithin(resumed, ended));
    },
  };
}

function resumedWithin(resumed: number | undefined, ended: number): InvariantResult {
  const ok = resumed !== undefined && resumed - ended <= RESUME_BOUND_MS;
  return {
    name: `polling resumed within ${RESUME_BOUND_MS / 1000} s of Telegram answering again`,
    ok,
    violations: ok ? 0 : 1,
    examples: ok ? [] : [resumed ? `after ${resumed - ended} ms` : "never"],
  };
}
