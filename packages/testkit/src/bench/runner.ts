// Shared by every benchmark: how long a cell runs (--seconds N or BENCH_CELL_MS), the closed loop
// of concurrent clients that measures one cell, and the rounds that interleave the cells, so that
// other work on the machine weighs on every cell alike.
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * The measured time of one cell over all its rounds (ms): `--seconds N`, else BENCH_CELL_MS, else
 * `defaultMs`. Other options of the command line are left to the benchmark.
 */
export function cellTime(defaultMs: number, minMs = 1000): number {
  const { values } = parseArgs({ options: { seconds: { type: "string" } }, strict: false });
  const seconds = typeof values.seconds === "string" ? values.seconds : undefined;
  const ms = seconds ? Number(seconds) * 1000 : Number(process.env.BENCH_CELL_MS ?? defaultMs);
  if (!Number.isFinite(ms) || ms < minMs) throw new Error("--seconds must be a number, at least 1");
  return ms;
}

/** Returned by a loop's call: this client stops (its supply of work ran out). */
export const STOP = Symbol("stop");

export interface LoopOptions {
  clients: number;
  /** Calls that start within this time are not recorded. */
  warmupMs?: number;
  ms: number;
}

/**
 * `clients` concurrent loops, each calling `call(client, n)` for `warmupMs + ms`; `record` gets
 * the latency of every call that started after the warm-up and ended before the stop. Returns
 * the measured time (ms), from the warm-up's end to the stop.
 */
export async function closedLoop<T>(
  { clients, warmupMs = 0, ms }: LoopOptions,
  call: (client: number, n: number) => Promise<T | typeof STOP>,
  record?: (latencyMs: number, result: T, client: number) => void,
): Promise<number> {
  let stopped = false;
  const measureFrom = performance.now() + warmupMs;
  const loop = async (client: number) => {
    for (let n = 0; !stopped; n++) {
      const started = performance.now();
      const result = await call(client, n);
      if (result === STOP) return;
      if (record && !stopped && started >= measureFrom)
        record(performance.now() - started, result, client);
    }
  };
  const loops = Array.from({ length: clients }, (_, client) => loop(client));
  await sleep(warmupMs + ms);
  stopped = true;
  const measured = performance.now() - measureFrom;
  await Promise.all(loops);
  return measured;
}

/**
 * `rounds` rounds over the cells; with `rotate`, each round starts one cell later, so that no
 * cell always runs first (or right after a particular one).
 */
export async function interleave<C>(
  cells: readonly C[],
  rounds: number,
  run: (cell: C, round: number) => Promise<void>,
  options: { rotate?: boolean; afterRound?: (round: number) => void } = {},
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < cells.length; i++) {
      const index = options.rotate ? (i + round) % cells.length : i;
      await run(cells[index]!, round);
    }
    options.afterRound?.(round + 1);
  }
}
