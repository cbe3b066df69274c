// `npm test` runs the quick chaos suite: every scenario and every fault, real processes, and the
// invariant checker after each scenario. The full run is `npm run chaos`.
import { describe, expect, it } from "vitest";
import { runChaosSuite, type SuiteResult } from "./suite.ts";
import { formatTable } from "./table.ts";

describe("chaos (quick)", () => {
  it(
    "keeps every invariant in every scenario, and every fault really happens",
    async () => {
      const log: string[] = [];
      const suite = await inLanes(2, (lane) =>
        runChaosSuite({ quick: true, lane, stream: { write: (text: string) => log.push(text) } }),
      );
      console.log(
        `${formatTable(suite.results)}\n${suite.results.flatMap((r) => r.notes.map((n) => `  ${r.name}: ${n}`)).join("\n")}`,
      );
      const failures = suite.results.flatMap((r) =>
        r.invariants
          .filter((i) => !i.ok)
          .map((i) => `${r.name}: ${i.name}: ${i.examples.join("; ")}`),
      );
      expect(failures).toEqual([]);
      expect(suite.results.map((r) => r.name)).toEqual([
        "kill -9 bot",
        "SIGSTOP bot",
        "restart Redis",
        "Redis filled to its memory limit",
        "restart PostgreSQL",
        "polling: PostgreSQL down past the retry window",
        "a poison update in polling mode while customers keep buying",
        "Telegram 429/500",
        "polling: Telegram hangs past the clients' timeout",
        "duplicate deliveries",
        "kill -9 worker",
        "a flood of updates from a few users during a sale",
        "the operator group at its flood limit",
        "webhook unreachable past the reconciliation grace while the worker runs",
        "all combined",
      ]);
      const total = (key: keyof (typeof suite.results)[number]["counts"]) =>
        suite.results.reduce((sum, r) => sum + r.counts[key], 0);
      expect(total("botKills")).toBeGreaterThanOrEqual(2);
      expect(total("workerKills")).toBeGreaterThanOrEqual(2);
      expect(total("orderLocksExpiredWhilePaused")).toBeGreaterThanOrEqual(2);
      expect(total("redisRestarts")).toBeGreaterThanOrEqual(2);
      expect(total("postgresRestarts")).toBeGreaterThanOrEqual(2);
      expect(total("chargesDuringOutage")).toBeGreaterThan(0);
      expect(total("redisFills")).toBeGreaterThanOrEqual(1);
      expect(total("floodLimited")).toBeGreaterThan(0);
      // Every scenario checks that every charge Telegram took is accounted for.
      for (const r of suite.results)
        expect(r.invariants.map((i) => i.name)).toContain(
          "every charge is accounted for: a paid order or refunded once, none refunded twice",
        );
      expect(
        total("telegram429") *
          total("telegram500") *
          total("duplicateDeliveries") *
          total("droppedResponses"),
      ).toBeGreaterThan(0);
      expect(suite.ok).toBe(true);
    },
    20 * 60_000,
  );
});

/**
 * The scenarios in `of` lanes side by side, each with an environment of its own (its PostgreSQL,
 * Redis and processes): a scenario's faults leave the machine mostly idle (measured: about 70% of
 * both cores during the one-lane suite), so two lanes take about half the time. The results come
 * back in the scenarios' own order.
 */
async function inLanes(
  of: number,
  run: (lane: { index: number; of: number }) => Promise<SuiteResult>,
): Promise<SuiteResult> {
  const lanes = await Promise.all(Array.from({ length: of }, (_, index) => run({ index, of })));
  // Lane k ran scenarios k, k + of, k + 2·of, ...: deal them back into one list.
  const rounds = Math.max(...lanes.map((lane) => lane.results.length));
  const results = Array.from({ length: rounds }, (_, i) =>
    lanes.flatMap((lane) => (lane.results[i] ? [lane.results[i]] : [])),
  ).flat();
  return {
    results,
    ok: lanes.every((lane) => lane.ok),
    seconds: Math.max(...lanes.map((lane) => lane.seconds)),
    sizes: lanes[0]!.sizes,
  };
}
