// Redis filled to its memory limit (noeviction, as compose runs it): every new key is refused with
// OOM while reads and deletes still work. Users are held at Order (the crowd and the fault's own
// placers) and at Pay (the fault's own payers) so the full Redis meets them: placements must be
// refused with the outage message, payments confirmed on the database's guarantees, updates
// handled, and nothing else noticed once the memory is back.
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import type { CustomerResult } from "@orderbot/testkit";
import { heldPayers, heldPlacers, paidWhen, paymentSince, type Fault } from "../fault.ts";

/** Filler keys, outside the shop's namespace; deleted when the fault ends. */
const FILLER = "chaos-filler:";

export function fillRedisFault(at: number): Fault {
  return {
    label: "fill Redis to maxmemory",
    happened: (c) => c.redisFills > 0,
    async run(ctx) {
      let payers: Promise<CustomerResult>[] = [];
      await ctx.at(at);
      const placing = await heldPlacers(ctx, 20_000);
      ctx.gates.arm("order");
      const redis = new Redis(ctx.env.redis.url, { maxRetriesPerRequest: 1 });
      const [, before] = (await redis.config("GET", "maxmemory")) as [string, string];
      const policy = ((await redis.config("GET", "maxmemory-policy")) as [string, string])[1];
      try {
        const value = "x".repeat(16_384);
        for (let i = 0; i < 32; i++) await redis.set(`${FILLER}${i}`, value);
        // Held last: a payer's hold ends before its reservation does, so only fast steps follow.
        const paying = await heldPayers(ctx, 45_000);
        const used = Number(/used_memory:(\d+)/.exec(await redis.info("memory"))?.[1]);
        // Well under what is used: what Redis frees meanwhile (released locks, expired counters,
        // client buffers) never makes room for a key.
        await redis.config("SET", "maxmemory-policy", "noeviction");
        await redis.config("SET", "maxmemory", String(used - 1024 * 1024));
        const refusal = await redis.set(`${FILLER}probe`, "x").then(
          () => "accepted",
          (error: Error) => error.message.split(" ")[0]!,
        );
        const outage = { start: Date.now(), end: 0 };
        ctx.note(
          `Redis full (maxmemory under used_memory, noeviction: a new key answers ${refusal}); ${ctx.gates.waitingAt("order")} users about to press Order and ${paying.waiting()} about to pay go ahead`,
        );
        ctx.gates.openAll();
        placing.release();
        paying.release();
        payers = paying.payers;
        // Full for the outage's length, and until a payment went through meanwhile (bounded).
        await sleep(ctx.sizes.redisDownMs);
        await paymentSince(ctx, outage.start, 20_000);
        await redis.config("SET", "maxmemory", before);
        outage.end = Date.now();
        ctx.outages.push(outage);
        if (refusal === "OOM") ctx.counts.redisFills++;
        ctx.note(`Redis memory back after ${((outage.end - outage.start) / 1000).toFixed(1)} s`);
      } finally {
        await redis.config("SET", "maxmemory", before).catch(() => undefined);
        await redis.config("SET", "maxmemory-policy", policy).catch(() => undefined);
        const keys = await redis.keys(`${FILLER}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      }
      ctx.note(
        `the fault's own placers: ${(await Promise.all(placing.placers)).map(paidWhen).join("; ")}`,
      );
      ctx.note(`the fault's own payers: ${(await Promise.all(payers)).map(paidWhen).join("; ")}`);
    },
  };
}
