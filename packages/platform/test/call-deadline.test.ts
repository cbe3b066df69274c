// withDeadline: a call that never answers settles at its deadline, an outer abort reaches the call,
// and a long-lived outer signal keeps no listener of a call that settled.
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { CallDeadlineError, withDeadline } from "../src/call-deadline.ts";

/** The signals Node.js keeps on `signal` for those derived from it by AbortSignal.any. */
function dependants(signal: AbortSignal): Set<unknown> | undefined {
  const symbol = Object.getOwnPropertySymbols(signal).find(
    (s) => s.description === "kDependantSignals",
  );
  return symbol && (signal as unknown as Record<symbol, Set<unknown>>)[symbol];
}

const never = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));

describe("withDeadline", () => {
  it("rejects a call that ignores its signal at the deadline", async () => {
    await expect(withDeadline(20, "getMe", () => new Promise(() => {}))).rejects.toBeInstanceOf(
      CallDeadlineError,
    );
  });

  it("passes an outer abort to the call", async () => {
    const outer = new AbortController();
    const call = withDeadline(60_000, "getUpdates", never, outer.signal);
    outer.abort(new Error("stopping"));
    await expect(call).rejects.toThrow("stopping");
  });

  it("leaves no listener or derived signal on a long-lived outer signal once calls settle", async () => {
    const probe = new AbortController(); // this Node.js keeps derived signals where looked
    const derived = AbortSignal.any([probe.signal]);
    expect(dependants(probe.signal)?.size).toBe(1);
    expect(derived.aborted).toBe(false);
    const outer = new AbortController();
    for (let i = 0; i < 50; i++)
      await withDeadline(1_000, "sendMessage", async () => i, outer.signal);
    expect(getEventListeners(outer.signal, "abort")).toHaveLength(0);
    expect(dependants(outer.signal)?.size ?? 0).toBe(0);
  });
});
