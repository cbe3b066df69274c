// Faults that hit a bot process: kill -9 while it handles an update, and SIGSTOP while it holds an
// order lock, kept stopped past the lock's TTL, then SIGCONT.
import { setTimeout as sleep } from "node:timers/promises";
import { parseInvoicePayload } from "@orderbot/core/payments";
import type { AppInstance } from "@orderbot/testkit";
import { NAMESPACE } from "../environment.ts";
import type { Fault, FaultContext } from "../fault.ts";

type Forwarded = { bot: AppInstance; update: Record<string, unknown> };

/** Resolves with the next update the proxy forwards that matches, or null after `timeoutMs`. */
function nextForwarded(
  ctx: FaultContext,
  match: (f: Forwarded) => boolean,
  timeoutMs: number,
): Promise<Forwarded | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(null), timeoutMs);
    const unsubscribe = ctx.env.shop.onForward((bot, update) => {
      if (match({ bot, update })) finish({ bot, update });
    });
    function finish(value: Forwarded | null) {
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    }
  });
}

/** The order an update works on under the `order` lock: pre-checkout, successful payment, Cancel. */
function lockedOrder(update: Record<string, unknown>): string | undefined {
  const u = update as {
    pre_checkout_query?: { invoice_payload?: string };
    message?: { successful_payment?: { invoice_payload?: string } };
    callback_query?: { data?: string };
  };
  const payload =
    u.pre_checkout_query?.invoice_payload ?? u.message?.successful_payment?.invoice_payload;
  if (payload) return parseInvoicePayload(payload)?.orderId;
  const data = u.callback_query?.data;
  return data?.startsWith("x:") ? data.slice(2) : undefined;
}

/** kill -9 a bot just after the proxy handed it a press of Order; an orchestrator starts it again. */
export function killBot(at: number): Fault {
  return {
    label: "kill -9 a bot",
    happened: (c) => c.botKills > 0,
    async run(ctx) {
      await ctx.at(at);
      const caught = await nextForwarded(
        ctx,
        (f) =>
          String((f.update.callback_query as { data?: string } | undefined)?.data ?? "").startsWith(
            "o:",
          ),
        10_000,
      );
      const victim = caught?.bot ?? ctx.env.shop.bots[1]!;
      await sleep(1 + ctx.random() * 8);
      const pid = victim.process.pid;
      await victim.process.kill();
      ctx.counts.botKills++;
      ctx.note(
        `kill -9 ${victim.name} (pid ${pid})${caught ? " with a press of Order in flight" : ""}`,
      );
      await sleep(2_000);
      await victim.restart();
      ctx.note(`${victim.name} started again (pid ${victim.process.pid})`);
    },
  };
}

/**
 * SIGSTOP a bot as soon as it holds the order lock of an update it was handed (pre-checkout,
 * successful payment, Cancel), keep it stopped until the lock has expired, then SIGCONT. Tries a
 * few updates until it catches a holder.
 */
export function pauseBot(at: number): Fault {
  return {
    label: "SIGSTOP a bot holding an order lock past its TTL",
    happened: (c) => c.orderLocksExpiredWhilePaused > 0,
    async run(ctx) {
      await ctx.at(at);
      const probe = ctx.env.probe;
      for (
        let attempt = 0;
        attempt < ctx.sizes.pauseAttempts && ctx.counts.orderLocksExpiredWhilePaused === 0;
        attempt++
      ) {
        // While Redis is down (the combined scenario) there are no locks to catch: wait it out.
        if ((await probe.ping().catch(() => null)) === null) {
          attempt--;
          if (ctx.loadDone()) break;
          await sleep(500);
          continue;
        }
        const target = await nextForwarded(ctx, (f) => lockedOrder(f.update) !== undefined, 15_000);
        if (!target) continue;
        // Only this bot works on this order now (Telegram sends a chat's updates one at a time):
        // the moment the order's lock key appears, it is this bot's. Stop the bot right then.
        const key = `{${NAMESPACE}:lock:order:${lockedOrder(target.update)}}`;
        let token: string | null = null;
        const deadline = Date.now() + 3_000;
        while (token === null && Date.now() < deadline)
          token = await probe.get(key).catch(() => null);
        if (token === null) continue;
        target.bot.process.pause();
        ctx.counts.pauses++;
        try {
          if ((await probe.get(key).catch(() => null)) !== token) continue; // released just before the stop
          const pttl = await probe.pttl(key);
          const stoppedAt = Date.now();
          await sleep(Math.max(0, pttl) + 1_500);
          const now = await probe.get(key).catch(() => null);
          if (now !== token) {
            ctx.counts.orderLocksExpiredWhilePaused++;
            ctx.note(
              `SIGSTOP ${target.bot.name} holding an order lock (${pttl} ms left); lock expired while stopped; SIGCONT after ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s`,
            );
          }
        } finally {
          target.bot.process.resume();
        }
      }
      if (ctx.counts.orderLocksExpiredWhilePaused === 0)
        ctx.note(`${ctx.counts.pauses} SIGSTOPs, none caught an order lock held`);
    },
  };
}
