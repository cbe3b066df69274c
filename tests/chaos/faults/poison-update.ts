// A poison update in polling mode while customers keep buying: one customer's successful_payment
// fails on every try (a trigger refuses their payment row), so the poller retries it without
// limit. getUpdates hands out at most 100 updates from the oldest unconfirmed one: unless that
// update is parked, every other chat freezes and their pre-checkout queries miss Telegram's 10 s.
import type { CustomerResult, Step } from "@orderbot/testkit";
import type { ChaosEnvironment } from "../environment.ts";
import { paidWhen, until, type Fault, type FaultContext } from "../fault.ts";

const POISON_SQL = [
  `CREATE TABLE IF NOT EXISTS chaos_poison (user_id bigint PRIMARY KEY)`,
  // A sequence is not rolled back with the refused transaction: it counts the tries.
  `CREATE SEQUENCE IF NOT EXISTS chaos_poison_tries`,
  `CREATE OR REPLACE FUNCTION chaos_poison() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF EXISTS (SELECT 1 FROM chaos_poison WHERE user_id = NEW.user_id) THEN
       PERFORM nextval('chaos_poison_tries');
       RAISE EXCEPTION 'chaos: this payment fails on every try';
     END IF;
     RETURN NEW;
   END $$`,
  `DROP TRIGGER IF EXISTS chaos_poison ON payments`,
  `CREATE TRIGGER chaos_poison BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION chaos_poison()`,
];
const CURE_SQL = [
  `DROP TRIGGER IF EXISTS chaos_poison ON payments`,
  `DROP FUNCTION IF EXISTS chaos_poison()`,
  `DROP TABLE IF EXISTS chaos_poison`,
  `DROP SEQUENCE IF EXISTS chaos_poison_tries`,
];

/** While the poison failed; `stuck`: the fault's buyers not done 30 s after they were let go. */
interface PoisonWindow {
  from: number;
  to: number;
  stuck: number;
}

async function tries(env: ChaosEnvironment): Promise<number> {
  const [row] = await env.db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::int AS n FROM chaos_poison_tries`,
  );
  return row?.n ?? 0;
}

/** The newest user named Extra*: the fault's own shopper (the only one in its scenario). */
function shopperId(ctx: FaultContext): number | undefined {
  const deliveries = ctx.env.shop.kit.deliveries;
  for (let i = deliveries.length - 1; i >= 0; i--) {
    const from = deliveries[i]!.update.message?.from ?? deliveries[i]!.update.callback_query?.from;
    if (from?.first_name.startsWith("Extra")) return from.id;
  }
  return undefined;
}

export function poisonPayment(at: number): Fault {
  const seen = { tries: 0 };
  return {
    label: "a payment that fails on every try",
    happened: () => seen.tries >= 2,
    async run(ctx) {
      await ctx.at(at);
      const { env } = ctx;
      for (const sql of POISON_SQL) await env.db.$executeRawUnsafe(sql);
      try {
        const window = await poisonWhileBuying(ctx, seen);
        ctx.checkAfterSettle(() => Promise.resolve(answeredInTime(ctx, window)));
      } finally {
        seen.tries = Math.max(seen.tries, await tries(env).catch(() => 0));
        for (const sql of CURE_SQL) await env.db.$executeRawUnsafe(sql);
      }
      ctx.note(`the poisoned payment failed ${seen.tries} times, then the poison was lifted`);
    },
  };
}

/**
 * Poisons the fault's own payer; once it failed, three more shoppers set out to buy while a burst
 * of 120 updates from other chats arrives. Until the poller parks the poison, nothing after it is
 * confirmed, so the buyers' own steps wait too; under the old poller the 100 after the poison fill
 * its window and nothing newer is ever fetched. The poison is lifted when the buyers are done.
 */
async function poisonWhileBuying(
  ctx: FaultContext,
  seen: { tries: number },
): Promise<PoisonWindow> {
  const poison = async (step: Step) => {
    if (step !== "pay") return;
    const id = shopperId(ctx);
    if (id === undefined) throw new Error("the poisoned shopper is not in the kit's record");
    await ctx.env.db.$executeRawUnsafe(`INSERT INTO chaos_poison VALUES (${id})`);
  };
  // Stock for the payers whatever the crowd has bought by now (each shopper adds one unit too).
  for (const product of ctx.env.catalog) await ctx.env.shop.operator.stock(product.sku, "+3");
  const { payer } = await poisonedPayer(ctx, poison);
  const from = Date.now();
  const buyers = [1, 2, 3].map(() => ctx.shopper("pay", () => Promise.resolve()));
  await burst(ctx, 8, 15);
  let settled = 0;
  for (const buyer of buyers) void buyer.finally(() => settled++);
  // Bounded: under the old poller their updates are never fetched until the poison lifts.
  await until(() => settled === buyers.length, 30_000);
  const stuck = buyers.length - settled;
  seen.tries = await tries(ctx.env);
  const to = Date.now();
  await ctx.env.db.$executeRawUnsafe(`DELETE FROM chaos_poison`);
  const ends = await Promise.all(buyers);
  ctx.note(
    `buyers while poisoned: ${ends.map(paidWhen).join(", ")}; ${stuck} stuck until it lifted`,
  );
  await payer;
  return { from, to, stuck };
}

/**
 * The fault's own payer, once their payment has failed: the crowd may buy the unit restocked for
 * them first, so a payer who never reached Pay is replaced, three times at most.
 */
async function poisonedPayer(
  ctx: FaultContext,
  poison: (step: Step) => Promise<void>,
): Promise<{ payer: Promise<CustomerResult> }> {
  const tried = async () => (await tries(ctx.env)) >= 1;
  const ends: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    let payerDone = false;
    const payer = ctx.shopper("pay", poison).finally(() => (payerDone = true));
    await until(async () => payerDone || (await tried()), 45_000);
    if (await until(tried, payerDone ? 2_000 : 15_000)) return { payer };
    ends.push(paidWhen(await payer));
  }
  throw new Error(`the poisoned payment never reached the bot: ${ends.join("; ")}`);
}

/** `users` new users each send `each` /help messages at once (under the rate limit). */
async function burst(ctx: FaultContext, users: number, each: number): Promise<void> {
  for (let u = 0; u < users; u++) {
    const user = ctx.env.shop.kit.createUser({ firstName: `Burst${u + 1}`, languageCode: "en" });
    for (let m = 0; m < each; m++) await user.send("/help");
  }
}

/** Every other pre-checkout query that arrived while the poison failed was answered in time. */
function answeredInTime(ctx: FaultContext, window: PoisonWindow) {
  const kit = ctx.env.shop.kit;
  const answered = new Set(
    kit
      .callsTo("answerPreCheckoutQuery")
      .filter((c) => c.ok) // the kit refuses an answer after Telegram's 10 s
      .map((c) => String(c.params.pre_checkout_query_id)),
  );
  const queries = kit.deliveries
    .filter((d) => d.enqueuedAt >= window.from && d.enqueuedAt <= window.to)
    .flatMap((d) => (d.update.pre_checkout_query ? [d.update.pre_checkout_query] : []));
  const late = queries.filter((q) => !answered.has(q.id));
  const problems = late.map((q) => `pre-checkout ${q.id} of user ${String(q.from.id).slice(-4)}`);
  if (queries.length === 0) problems.push("no customer paid while the poison failed");
  if (window.stuck > 0)
    problems.push(`${window.stuck} of the fault's buyers could not pay in 30 s`);
  return {
    name: `while a payment failed on every try, ${queries.length - late.length} of ${queries.length} pre-checkout queries were answered within Telegram's 10 s`,
    ok: problems.length === 0,
    violations: problems.length,
    examples: problems.slice(0, 5),
  };
}
