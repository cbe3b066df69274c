// One scenario: the stock is set back to the sale's level, the flash sale runs with an operator
// restocking in the group, the scenario's faults strike mid-load, the shop settles, and every
// invariant is checked on the whole database and the kit's whole record.
import { setTimeout as sleep } from "node:timers/promises";
import {
  runCustomer,
  settle,
  startFlashSale,
  type CustomerResult,
  type FlashSaleStats,
  type InvariantResult,
  type Progress,
  type SettleResult,
} from "@orderbot/testkit";
import { seededRandom } from "@orderbot/fake-telegram";
import type { ChaosEnvironment } from "./environment.ts";
import {
  emptyCounts,
  Gates,
  type FaultContext,
  type FaultCounts,
  type OutageRecord,
} from "./fault.ts";
import { checkAll, outageBehaviour } from "./checks.ts";
import { startPollingMode, type PollingMode } from "./polling.ts";
import type { Scenario } from "./scenarios.ts";
import type { Sizes } from "./sizes.ts";

export interface ScenarioResult {
  name: string;
  seconds: number;
  /** Updates the kit created in this scenario, and orders placed. */
  updates: number;
  orders: number;
  stats: FlashSaleStats;
  counts: FaultCounts;
  notes: string[];
  settled: SettleResult;
  invariants: InvariantResult[];
  ok: boolean;
}

const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);

function hash(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** The scenario's shoppers: the run's, fewer for one polling process, and its own share of them. */
function crowdSize(scenario: Scenario, sizes: Sizes): number {
  const users = scenario.polling ? Math.min(sizes.users, sizes.pollingUsers) : sizes.users;
  return Math.ceil(users * (scenario.userShare ?? 1));
}

export async function runScenario(
  env: ChaosEnvironment,
  scenario: Scenario,
  sizes: Sizes,
  progress: Progress,
  onSale?: (stats: FlashSaleStats) => void,
): Promise<ScenarioResult> {
  const started = Date.now();
  const [before] = await env.db.$queryRaw<
    { maxId: number }[]
  >`SELECT COALESCE(max(id), 0)::int AS "maxId" FROM orders`;
  const maxId = before?.maxId ?? 0;
  const notes: string[] = [];
  const note = (line: string) => {
    notes.push(line);
    progress.log(`  [${scenario.name}] ${line}`);
  };
  // Polling: the scenario's whole record (its updates, the operator's restocks) goes through it.
  const polling = scenario.polling
    ? await startPollingMode(env, sizes, scenario.pollingEnv)
    : undefined;
  if (polling)
    note(
      `${polling.bot.name} polls getUpdates for ${crowdSize(scenario, sizes)} users; the webhook bots stand by`,
    );
  try {
    return await runLoad(
      env,
      scenario,
      sizes,
      progress,
      { started, maxId, notes, note },
      polling,
      onSale,
    );
  } finally {
    if (polling) {
      await polling.restore();
      note("back to webhooks");
    }
  }
}

async function runLoad(
  env: ChaosEnvironment,
  scenario: Scenario,
  sizes: Sizes,
  progress: Progress,
  run: { started: number; maxId: number; notes: string[]; note: (line: string) => void },
  polling: PollingMode | undefined,
  onSale?: (stats: FlashSaleStats) => void,
): Promise<ScenarioResult> {
  const { started, maxId, notes, note } = run;
  const kit = env.shop.kit;
  const firstUpdate = kit.deliveries.length;
  const firstCall = kit.calls.length;
  for (const product of env.catalog)
    await env.shop.operator.stock(product.sku, `=${sizes.stockPerProduct}`);

  const random = seededRandom(hash(scenario.name)); // a scenario's choices repeat from run to run
  const gates = new Gates();
  const opened = Date.now();
  const shopping = {
    kit,
    products: env.catalog.map((p) => p.titleEn),
    intents: { pay: 0.45, cancel: 0.2, abandon: 0.35 },
    maxQuantity: sizes.maxQuantity,
    thinkMs: sizes.thinkMs,
    random,
  };
  const sale = startFlashSale({
    ...shopping,
    users: crowdSize(scenario, sizes),
    seconds: sizes.seconds,
    gate: (step) => gates.pass(step),
  });
  const extraResults: CustomerResult[] = [];
  const restockReplies: Promise<unknown>[] = [];
  onSale?.(sale.stats);
  let done = false;
  const counts = emptyCounts();
  const outages: OutageRecord[] = [];
  const faultChecks: (() => Promise<InvariantResult>)[] = [];
  const ctx: FaultContext = {
    env,
    sizes,
    sale,
    counts,
    outages,
    gates,
    random,
    note,
    loadDone: () => done,
    allowUnrecorded(updateIds) {
      for (const id of updateIds) env.skipped.add(id);
    },
    checkAfterSettle(check) {
      faultChecks.push(check);
    },
    async shopper(
      intent,
      gate = (step) => (step === "pay" ? gates.pass(step) : Promise.resolve()),
    ) {
      const product = env.catalog[Math.floor(random() * env.catalog.length)]!;
      // Shops as soon as the unit is in: waiting for the reply too would leave it to the crowd.
      const { replied } = await env.shop.operator.stockHandled(product.sku, "+1");
      restockReplies.push(replied);
      const user = kit.createUser({
        firstName: `Extra${extraResults.length + 1}`,
        languageCode: "en",
      });
      const result = await runCustomer(user, {
        ...shopping,
        products: [product.titleEn],
        intents: {
          pay: intent === "pay" ? 1 : 0,
          cancel: 0,
          abandon: intent === "abandon" ? 1 : 0,
        },
        maxQuantity: 1,
        // By default held at Pay only: at an Order gate armed for the crowd, the fault could meet
        // them before they have an order to pay.
        gate,
      });
      extraResults.push(result);
      return result;
    },
    at: async (share) => {
      const when = opened + share * sizes.seconds * 1000;
      while (!done && Date.now() < when) await sleep(50);
    },
  };
  const restock = new AbortController();
  const restocking = env.shop.operator.restockWhile({
    skus: env.catalog.map((p) => p.sku),
    everyMs: 2_500,
    units: [2, 5],
    random,
    signal: restock.signal,
  });
  const faults = Promise.allSettled(scenario.faults.map((fault) => fault.run(ctx)));
  const results = await sale.finished;
  done = true;
  gates.openAll();
  restock.abort();
  await restocking;
  const outcomes = await faults;
  await Promise.all(restockReplies); // the restocks check reads what each reply said
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.status === "rejected")
      note(`fault "${scenario.faults[i]!.label}" failed: ${String(outcome.reason).split("\n")[0]}`);
  }
  for (const r of [...results, ...extraResults]) if (r.press) env.presses.push(r.press);

  const loaded = Date.now();
  const waitedOn = new Set<string>();
  const settled = await settle({
    kit,
    db: env.db,
    timeoutMs: sizes.settleMs,
    onWait: (pending) => pending.forEach((item) => waitedOn.add(item.replace(/^\d+ /, ""))),
  });
  const settledAt = Date.now();
  if (!settled.settled)
    note(`did not settle within ${sizes.settleMs / 1000} s: ${settled.pending.join(", ")}`);
  countTelegramFaults(env, counts, firstUpdate, firstCall);

  const skipped = polling?.skipped();
  if (skipped) note(`the poller skipped ${skipped.size} updates after its retry window`);
  for (const id of skipped ?? []) env.skipped.add(id);
  const invariants = await checkAll(env, env.presses, sizes, env.skipped);
  for (const check of faultChecks) invariants.push(await check());
  const planned = scenario.faults.map((f) => ({ label: f.label, ok: f.happened(counts) }));
  invariants.push({
    name: "every planned fault really happened",
    ok: planned.every((p) => p.ok) && outcomes.every((o) => o.status === "fulfilled"),
    violations: planned.filter((p) => !p.ok).length,
    examples: planned.filter((p) => !p.ok).map((p) => `${p.label}: not observed`),
  });
  if (outages.length > 0) {
    const outage = await outageBehaviour(env, [...results, ...extraResults], outages);
    invariants.push(outage);
    note(outage.name);
  }

  note(
    `took ${seconds(opened, loaded)} s of load and faults, ${seconds(loaded, settledAt)} s to settle` +
      `${waitedOn.size > 0 ? ` (waiting on ${[...waitedOn].join(", ")})` : ""}, ${seconds(settledAt, Date.now())} s of checks`,
  );
  const [placed] = await env.db.$queryRaw<
    { orders: number }[]
  >`SELECT count(*)::int AS orders FROM orders WHERE id > ${maxId}`;
  return {
    name: scenario.name,
    seconds: (Date.now() - started) / 1000,
    updates: kit.deliveries.length - firstUpdate,
    orders: placed?.orders ?? 0,
    stats: sale.stats,
    counts,
    notes,
    settled,
    invariants,
    ok: invariants.every((i) => i.ok),
  };
}

/** What the kit really injected during the scenario, from its own logs. */
function countTelegramFaults(
  env: ChaosEnvironment,
  counts: FaultCounts,
  firstUpdate: number,
  firstCall: number,
): void {
  for (const call of env.shop.kit.calls.slice(firstCall)) {
    if (call.fault === "429") counts.telegram429++;
    if (call.fault === "500") counts.telegram500++;
  }
  for (const update of env.shop.kit.deliveries.slice(firstUpdate)) {
    for (const attempt of update.attempts) {
      if (attempt.duplicate) counts.duplicateDeliveries++;
      if (attempt.error === "response dropped (fault)") counts.droppedResponses++;
    }
  }
}
