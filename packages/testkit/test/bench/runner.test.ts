import { describe, expect, it } from "vitest";
import { closedLoop, interleave, STOP } from "@orderbot/testkit";

describe("interleave", () => {
  it("runs every cell once a round, each round one cell later when rotating", async () => {
    const order: string[] = [];
    const rounds: number[] = [];
    const run = async (cell: string, round: number) => void order.push(`${round}${cell}`);
    await interleave(["a", "b", "c"], 3, run, { rotate: true, afterRound: (r) => rounds.push(r) });
    expect(order).toEqual(["0a", "0b", "0c", "1b", "1c", "1a", "2c", "2a", "2b"]);
    expect(rounds).toEqual([1, 2, 3]);
    order.length = 0;
    await interleave(["a", "b"], 2, run);
    expect(order).toEqual(["0a", "0b", "1a", "1b"]);
  });
});

describe("closedLoop", () => {
  /** Calls that take items from a supply of `n`, then stop their client. */
  const supply = (n: number) => {
    let left = n;
    return async (client: number) => (left-- > 0 ? client : STOP);
  };

  it("records every call after the warm-up, until each client's supply runs out", async () => {
    const recorded: number[] = [];
    await closedLoop({ clients: 4, ms: 20 }, supply(10), (_, client) => recorded.push(client));
    expect(recorded).toHaveLength(10);
    expect(new Set(recorded)).toEqual(new Set([0, 1, 2, 3]));
  });

  it("records nothing that started during the warm-up", async () => {
    const recorded: number[] = [];
    await closedLoop({ clients: 2, warmupMs: 50, ms: 10 }, supply(6), (latency) =>
      recorded.push(latency),
    );
    expect(recorded).toEqual([]);
  });
});
