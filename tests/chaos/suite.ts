// The chaos suite: one environment (own PostgreSQL, own Redis, 3 bots, 2 workers), then every
// scenario in turn on it, the invariants checked after each one.
import { rm } from "node:fs/promises";
import {
  formatInvariants,
  startProgress,
  summarizeLocks,
  scrapeAll,
  type Progress,
  type ProgressStream,
} from "@orderbot/testkit";
import { startChaosEnvironment, type ChaosEnvironment } from "./environment.ts";
import { runScenario, type ScenarioResult } from "./scenario.ts";
import { scenarios } from "./scenarios.ts";
import { FULL, QUICK, type Sizes } from "./sizes.ts";
import { describeFaults } from "./table.ts";

export interface SuiteOptions {
  quick: boolean;
  /** Run only the scenarios whose names contain one of these. */
  only?: string[];
  /**
   * Run every `of`-th scenario from `index` on, in an environment of its own: `npm test` runs two
   * lanes side by side, because a scenario leaves the machine mostly idle while its faults last.
   */
  lane?: { index: number; of: number };
  stream?: ProgressStream;
  signal?: AbortSignal;
}

export interface SuiteResult {
  results: ScenarioResult[];
  ok: boolean;
  seconds: number;
  sizes: Sizes;
}

function statusLine(
  env: ChaosEnvironment | undefined,
  current: () => { name: string; result?: Partial<ScenarioResult> } | undefined,
  sizes: Sizes,
  started: number,
): string {
  const running = current();
  const elapsed = `${Math.round((Date.now() - started) / 1000)}s`;
  if (!env || !running) return `chaos ${elapsed}: starting`;
  const sale = running.result?.stats;
  if (!sale) return `chaos ${elapsed}: ${running.name}: preparing`;
  const p = sale.placed;
  return (
    `chaos ${elapsed}: ${running.name}: users ${sale.done}/${sale.started}/${sizes.users} done/arrived/total · ` +
    `orders ${p.placed} placed, ${p["out-of-stock"] + sale.soldOutOnCard} sold out, ${p.unavailable} refused (Redis down), ${p.busy} busy · ` +
    `paid ${sale.paid} · cancelled ${sale.cancelled} · updates ${env.shop.kit.deliveries.length}, pending ${env.shop.kit.pendingUpdates.length}`
  );
}

export async function runChaosSuite(options: SuiteOptions): Promise<SuiteResult> {
  const sizes = options.quick ? QUICK : FULL;
  const started = Date.now();
  const lane = options.lane ?? { index: 0, of: 1 };
  const list = scenarios({ baseline: !options.quick })
    .filter((_, i) => i % lane.of === lane.index)
    .filter((s) => !options.only?.length || options.only.some((o) => s.name.includes(o)));
  let env: ChaosEnvironment | undefined;
  let current: { name: string; result?: Partial<ScenarioResult> } | undefined;
  const progress: Progress = startProgress({
    stream: options.stream,
    render: () => statusLine(env, () => current, sizes, started),
  });
  const results: ScenarioResult[] = [];
  try {
    progress.log(
      `chaos: ${options.quick ? "quick" : "full"} run, ${list.length} scenarios, ${sizes.users} users each, stock ${sizes.stockPerProduct * 5} over 5 products`,
    );
    env = await startChaosEnvironment(sizes, (line) => progress.log(`  ${line}`));
    for (const scenario of list) {
      if (options.signal?.aborted) break;
      current = { name: scenario.name };
      progress.log(`scenario: ${scenario.name}`);
      const running = runScenario(
        env,
        scenario,
        sizes,
        progress,
        (stats) => (current!.result = { stats }),
      );
      const result = await running;
      results.push(result);
      progress.log(
        `  ${result.ok ? "ok" : "FAILED"} in ${result.seconds.toFixed(0)} s: ${result.updates} updates, ${result.orders} orders, faults: ${describeFaults(result.counts)}`,
      );
      if (!result.ok) progress.log(formatInvariants(result.invariants.filter((i) => !i.ok)));
    }
    const locks = summarizeLocks(
      await scrapeAll([...env.shop.bots, ...env.shop.workers].map((a) => a.metricsUrl)),
    );
    progress.log(
      `locks (live processes): ${locks.attempts} acquisitions, ${(locks.successRate * 100).toFixed(1)}% acquired, ` +
        `p99 wait ${locks.p99WaitMs} ms, leases lost ${locks.leasesLost}`,
    );
  } finally {
    current = undefined;
    progress.stop();
    const ok = results.length === list.length && results.every((r) => r.ok);
    if (env) {
      await env.dispose();
      if (ok) await rm(env.logDir, { recursive: true, force: true });
      else (options.stream ?? process.stdout).write(`process logs kept in ${env.logDir}\n`);
    }
  }
  return {
    results,
    ok: results.length === list.length && results.every((r) => r.ok),
    seconds: (Date.now() - started) / 1000,
    sizes,
  };
}
