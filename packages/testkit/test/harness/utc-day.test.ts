import { afterEach, expect, it, vi } from "vitest";
import { withinOneUtcDay } from "../../src/harness/utc-day.ts";

afterEach(() => void vi.useRealTimers());

it("goes on at once when the run fits in what is left of the UTC day", async () => {
  vi.useFakeTimers({ now: Date.parse("2026-12-06T12:00:00Z") });
  await withinOneUtcDay(60_000);
  expect(new Date().toISOString()).toBe("2026-12-06T12:00:00.000Z");
});

it("waits for the next UTC day when the run could straddle midnight", async () => {
  vi.useFakeTimers({ now: Date.parse("2026-12-06T23:59:30Z") });
  let done = false;
  const waiting = withinOneUtcDay(60_000).then(() => (done = true));
  await vi.advanceTimersByTimeAsync(30_000);
  expect(done).toBe(false);
  await vi.advanceTimersByTimeAsync(1_000);
  await waiting;
  expect(new Date().toISOString()).toBe("2026-12-07T00:00:01.000Z");
});
