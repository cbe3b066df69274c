// Faults that hit the services and the workers: Redis restarted empty (with users held at Order
// and Pay, the crowd's and the fault's own, so the outage meets them), PostgreSQL stopped the way a crash stops it, and kill -9 of
// the worker that is relaying the outbox while it holds claimed messages.
import { setTimeout as sleep } from "node:timers/promises";
import { scrapeAll, type AppInstance } from "@orderbot/testkit";
import { type FaultHandle } from "@orderbot/fake-telegram";
import { restartRedis } from "../environment.ts";
import {
  heldPayers,
  heldPlacers,
  paidWhen,
  paymentSince,
  until,
  type Fault,
  type FaultContext,
} from "../fault.ts";

/** `extraDownMs`: longer outages for the combined scenario, where Telegram's 429s slow every payment. */
export function restartRedisFault(at: number, extraDownMs = 0): Fault {
  return {
    label: "restart Redis",
    happened: (c) => c.redisRestarts > 0,
    async run(ctx) {
      // Listed from the start, so that a PostgreSQL restart planned later in the load waits for
      // it to end even when waiting for payers makes it begin late.
      const outage = { start: 0, end: 0 };
      ctx.outages.push(outage);
      await ctx.at(at);
      // The fault's own placers, the crowd held at Order, then the fault's own payers: held
      // last, as a payer's hold ends before its reservation does.
      const placing = await heldPlacers(ctx, 20_000);
      ctx.gates.arm("order");
      const paying = await heldPayers(ctx, 45_000);
      await restartRedis(ctx.env, ctx.sizes.redisDownMs + extraDownMs, async () => {
        outage.start = Date.now();
        ctx.note(
          `Redis stopped; ${ctx.gates.waitingAt("order")} users about to press Order and ${paying.waiting()} about to pay go ahead`,
        );
        ctx.gates.openAll();
        placing.release();
        paying.release();
        // Down for the outage's length, and until a payment went through meanwhile (bounded): in
        // the combined scenario Telegram's 429s and a stopped bot can slow every payer past it.
        await paymentSince(ctx, outage.start, 20_000);
      });
      outage.end = Date.now();
      ctx.counts.redisRestarts++;
      ctx.note(
        `Redis started again, empty, after ${((outage.end - outage.start) / 1000).toFixed(1)} s`,
      );
      ctx.note(
        `the fault's own placers: ${(await Promise.all(placing.placers)).map(paidWhen).join("; ")}`,
      );
      ctx.note(
        `the fault's own payers: ${(await Promise.all(paying.payers)).map(paidWhen).join("; ")}`,
      );
    },
  };
}

export function restartPostgres(at: number): Fault {
  return {
    label: "restart PostgreSQL",
    happened: (c) => c.postgresRestarts > 0,
    async run(ctx) {
      await ctx.at(at);
      // Not while Redis is down: payments made then must be confirmed on PostgreSQL's guarantees
      // alone (checks.ts, outageBehaviour), which needs PostgreSQL up for that while.
      await until(() => ctx.outages.every((o) => o.end > 0), 90_000); // Redis: payers, 6+4 s, 20 s
      const started = Date.now();
      await ctx.env.pg.stop("immediate");
      await sleep(ctx.sizes.postgresDownMs);
      await ctx.env.pg.start();
      ctx.counts.postgresRestarts++;
      ctx.note(
        `PostgreSQL stopped (immediate: connections cut, crash recovery) and started again after ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    },
  };
}

/** outbox-relay runs counted by a worker's metrics: the one whose count grows is the leader. */
async function relayRuns(worker: AppInstance): Promise<number> {
  const samples = await scrapeAll([worker.metricsUrl]);
  return samples
    .filter(
      (s) =>
        s.name === "orderbot_job_runs_total" &&
        s.labels.job === "outbox-relay" &&
        s.labels.outcome === "ran",
    )
    .reduce((total, s) => total + s.value, 0);
}

async function relayLeader(ctx: FaultContext): Promise<AppInstance | undefined> {
  const before = await Promise.all(ctx.env.shop.workers.map(relayRuns));
  await sleep(1_000);
  const after = await Promise.all(ctx.env.shop.workers.map(relayRuns));
  return ctx.env.shop.workers.find((_, i) => after[i]! > before[i]!);
}

/**
 * Outbox messages and deliveries claimed by a relay right now: a claim pushes next_attempt_at 4 s ahead
 * (OUTBOX_CLAIM_MS), further than any retry delay (at most 2 s in chaos runs).
 */
async function claimed(ctx: FaultContext): Promise<number> {
  const [row] = await ctx.env.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n
      FROM (SELECT status, next_attempt_at FROM outbox_messages
            UNION ALL SELECT status, next_attempt_at FROM deliveries) m
     WHERE status = 'PENDING' AND next_attempt_at > timezone('UTC', now()) + interval '2.5 seconds'`;
  return row?.n ?? 0;
}

/** The chats that outbox messages still wait to reach. */
async function waitingChats(ctx: FaultContext): Promise<number[]> {
  const rows = await ctx.env.db.$queryRaw<{ chatId: bigint }[]>`
    SELECT chat_id AS "chatId" FROM outbox_messages WHERE status = 'PENDING'
     UNION SELECT chat_id FROM deliveries WHERE status = 'PENDING'`;
  return rows.map((row) => Number(row.chatId));
}

/**
 * Kills the relay's leader while it holds claimed messages. A relay sends a message within
 * milliseconds of claiming it, so the fault makes Telegram slow (1.5 s, under the 2 s send timeout)
 * for every chat an outbox message waits for: the claim is then really open when the kill lands.
 * It hunts past the end of the load; when the load has left nothing to send, a late shopper
 * reserves a unit and walks away, and that reservation's expiry notice is the batch.
 */
export function killWorker(at: number): Fault {
  return {
    label: "kill -9 a worker mid-batch",
    happened: (c) => c.workerKillsMidBatch > 0,
    async run(ctx) {
      await ctx.at(at);
      let leader: AppInstance | undefined;
      let held = 0;
      let idleSince: number | undefined;
      let late: Promise<unknown> | undefined;
      const slowed = new Map<number, FaultHandle>();
      try {
        await until(async () => {
          leader ??= await relayLeader(ctx);
          const chats = await waitingChats(ctx).catch(() => []);
          for (const chat of chats) {
            if (!slowed.has(chat))
              slowed.set(chat, ctx.env.shop.kit.faults.set({ chatId: chat, latencyMs: 1_500 }));
          }
          idleSince = chats.length > 0 || !ctx.loadDone() ? undefined : (idleSince ?? Date.now());
          if (idleSince !== undefined && Date.now() - idleSince > 1_000 && !late) {
            ctx.note(
              "nothing left in the outbox after the load: a late shopper reserves a unit and walks away",
            );
            late = ctx.shopper("abandon");
          }
          held = leader ? await claimed(ctx).catch(() => 0) : 0;
          return held > 0;
        }, 45_000);
      } finally {
        for (const rule of slowed.values()) rule.remove();
      }
      const victim = leader ?? ctx.env.shop.workers[0]!;
      const pid = victim.process.pid;
      await victim.process.kill();
      ctx.counts.workerKills++;
      if (leader && held > 0) ctx.counts.workerKillsMidBatch++;
      ctx.note(
        `kill -9 ${victim.name} (pid ${pid}), ${leader ? "the outbox relay's leader" : "leader unknown"}, while ${held} outbox messages were claimed (Telegram slowed for ${slowed.size} chats)`,
      );
      await sleep(2_000);
      await victim.restart();
      ctx.note(`${victim.name} started again (pid ${victim.process.pid})`);
      await late;
    },
  };
}
