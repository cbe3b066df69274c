import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxInWindow } from "@orderbot/testkit";
import { createPacer, TELEGRAM_LIMITS, type PacingLimits } from "../../src/outbox/pacer.ts";

const limits: PacingLimits = { ...TELEGRAM_LIMITS, globalPerSecond: 25, marginMs: 100 };
const PRIVATE = [11n, 12n, 13n, 14n, 15n];
const GROUPS = [-1001n, -1002n];

/** Sends `arrivals` through the pacer the way the relay does: wait for the slot, then book it. */
function simulate(arrivals: { chat: bigint; at: number }[], pruneEvery = 7) {
  const pacer = createPacer(limits);
  const sent: { chat: bigint; at: number }[] = [];
  let clock = 0;
  arrivals.forEach(({ chat, at }, i) => {
    clock = Math.max(clock, at);
    if (i % pruneEvery === 0) pacer.prune(clock);
    const slot = pacer.nextSlot(chat, clock);
    expect(slot).toBeGreaterThanOrEqual(clock);
    pacer.book(chat, slot);
    sent.push({ chat, at: slot });
  });
  return sent;
}

const arrivalsArb = fc
  .array(fc.record({ chat: fc.constantFrom(...PRIVATE, ...GROUPS), gap: fc.integer({ min: 0, max: 3000 }) }), { minLength: 1, maxLength: 150 })
  .map((items) => {
    let t = 0;
    return items.map(({ chat, gap }) => ({ chat, at: (t += gap) }));
  });

describe("pacer", () => {
  it("keeps every limit for any arrival pattern: 1/s per chat, 20/min per group, the global cap", () => {
    fc.assert(
      fc.property(arrivalsArb, (arrivals) => {
        const sent = simulate(arrivals);
        for (const chat of [...PRIVATE, ...GROUPS]) {
          const times = sent.filter((s) => s.chat === chat).map((s) => s.at);
          for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
          if (chat < 0n) expect(maxInWindow(times, 60_000)).toBeLessThanOrEqual(20);
        }
        expect(maxInWindow(sent.map((s) => s.at), 1000)).toBeLessThanOrEqual(25);
      }),
      { numRuns: 300 },
    );
  });

  it("does not delay a message that no limit holds back", () => {
    const pacer = createPacer(limits);
    expect(pacer.nextSlot(11n, 5000)).toBe(5000);
    pacer.book(11n, 5000);
    expect(pacer.nextSlot(12n, 5000)).toBe(5000 + 1100 / 25); // only the global spacing
    expect(pacer.nextSlot(11n, 5000)).toBe(6100); // the chat's interval plus the margin
    expect(pacer.nextSlot(11n, 9000)).toBe(9000);
  });

  it("lets a group burst 20 messages, then waits for the first to leave the minute", () => {
    const pacer = createPacer(limits);
    let t = 0;
    for (let i = 0; i < 20; i++) {
      t = pacer.nextSlot(-1001n, t);
      pacer.book(-1001n, t);
    }
    expect(t).toBe(19 * 1100);
    expect(pacer.nextSlot(-1001n, t)).toBe(60_100);
  });

  it("holds a chat back until a 429's retry_after has passed, and reports it busy meanwhile", () => {
    const pacer = createPacer(limits);
    pacer.blockUntil(11n, 30_000);
    expect(pacer.nextSlot(11n, 1000)).toBe(30_000);
    expect(pacer.busyChats(1000, 6000)).toEqual([11n]);
    expect(pacer.busyChats(26_000, 31_000)).toEqual([]);
    expect(pacer.nextSlot(12n, 1000)).toBe(1000);
  });

  it("fills a gap in the global schedule instead of always queueing at the end", () => {
    const pacer = createPacer(limits);
    pacer.book(11n, 0);
    pacer.book(12n, 1000);
    expect(pacer.nextSlot(13n, 0)).toBe(44); // between the two booked sends
  });

  it("forgets history that no longer constrains anything", () => {
    const pacer = createPacer(limits);
    pacer.book(11n, 0);
    pacer.book(-1001n, 0);
    pacer.prune(1100);
    expect(pacer.busyChats(1100, 1100)).toEqual([]);
    pacer.prune(70_000);
    expect(pacer.nextSlot(-1001n, 70_000)).toBe(70_000);
  });
});

describe("pacer, counting from the answer", () => {
  it("spaces a chat's next message from when its previous call was answered, not from when it left", () => {
    const pacer = createPacer(limits);
    pacer.book(11n, 0);
    pacer.answered(11n, 0, 400); // a slow round trip
    expect(pacer.nextSlot(11n, 500)).toBe(1500);
    expect(pacer.nextSlot(12n, 500)).toBe(500); // the global spacing still counts from the start
  });
});
