// PostgreSQL down for longer than the polling bot's retry window, while shoppers pay: Telegram takes
// the money, and the successful_payment meets a database that is not there. The bot must keep the
// update until the payment is recorded, however long that takes.
import { setTimeout as sleep } from "node:timers/promises";
import { heldPayers, until, type Fault } from "../fault.ts";

export function postgresPastRetryWindow(at: number): Fault {
  return {
    label: "PostgreSQL down past the retry window while paying",
    happened: (c) => c.postgresRestarts > 0 && c.chargesDuringOutage > 0,
    async run(ctx) {
      await ctx.at(at);
      const kit = ctx.env.shop.kit;
      // Two payers of the fault's own held at Pay, so that someone pays whatever the crowd does.
      const paying = await heldPayers(ctx, 45_000);
      // The bot checks each order, then answers OK; Telegram holds those answers, and the charge
      // and its successful_payment follow an answer only once PostgreSQL is down.
      const held = kit.faults.hold("answerPreCheckoutQuery");
      paying.release();
      ctx.gates.openAll(); // the crowd's payers heldPayers held at Pay too
      // The first answer held, and a moment for more: not long, a payer gives up 10 s after its
      // pre-checkout query.
      if (await until(() => held.waiting >= 1, 8_000)) await until(() => held.waiting >= 3, 1_500);
      const holding = held.waiting;
      const stopped = Date.now();
      try {
        await ctx.env.pg.stop("immediate");
      } finally {
        held.release();
      }
      await sleep(ctx.sizes.pollingOutageMs);
      await ctx.env.pg.start();
      const started = Date.now();
      ctx.counts.postgresRestarts++;
      ctx.counts.chargesDuringOutage += kit.charges.filter(
        (c) => c.paidAt >= stopped && c.paidAt <= started,
      ).length;
      const { maxAttempts, baseMs, maxMs } = ctx.sizes.pollRetry;
      ctx.note(
        `PostgreSQL stopped for ${((started - stopped) / 1000).toFixed(1)} s (the poller gives an update ${maxAttempts} attempts, pauses ${baseMs}-${maxMs} ms) with ${holding} pre-checkout answers held; ${ctx.counts.chargesDuringOutage} charges taken meanwhile`,
      );
      await Promise.all(paying.payers);
    },
  };
}
