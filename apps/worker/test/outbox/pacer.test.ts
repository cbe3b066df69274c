import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxInWindow } from "@orderbot/fake-telegram";
import { createPacer, TELEGRAM_LIMITS, type PacingLimits } from "../../src/outbox/pacer.ts";

const GLOBAL = 5;
const limits: PacingLimits = { ...TELEGRAM_LIMITS, globalPerSecond: GLOBAL, marginMs: 100 };
const PRIVATE = [11n, 12n, 13n, 14n, 15n, 16n, 17n, 18n];
const GROUPS = [-1001n, -1002n];

interface Message {
  chat: bigint;
  arrival: number;
  /** Round trip of its call, and when within it Telegram receives it (0..1). */
  latency: number;
  receivedAt: number;
}

/**
 * Sends `messages` through the pacer the way the relay does — each chat's messages one after
 * another, chats side by side, a call booked when it leaves and marked answered when its answer
 * comes back — with a random latency per call, and returns when Telegram received each call.
 */
function simulate(messages: Message[]): { chat: bigint; received: number }[] {
  const pacer = createPacer(limits);
  const queues = new Map<bigint, Message[]>();
  for (const m of messages) queues.set(m.chat, [...(queues.get(m.chat) ?? []), m]);
  const inFlight = new Map<bigint, { sentAt: number; answerAt: number }>();
  const received: { chat: bigint; received: number }[] = [];
  let clock = 0;
  for (let steps = 0; queues.size > 0 || inFlight.size > 0; steps++) {
    expect(steps).toBeLessThan(100_000);
    let next: { chat: bigint; at: number } | null = null;
    for (const [chat, queue] of queues) {
      if (inFlight.has(chat)) continue;
      const at = pacer.nextSlot(chat, Math.max(clock, queue[0]!.arrival));
      if (!next || at < next.at) next = { chat, at };
    }
    const answer = [...inFlight].sort((a, b) => a[1].answerAt - b[1].answerAt)[0];
    if (answer && (!next || answer[1].answerAt <= next.at)) {
      clock = answer[1].answerAt;
      pacer.answered(answer[0], answer[1].sentAt, clock);
      inFlight.delete(answer[0]);
      continue;
    }
    clock = next!.at;
    if (steps % 7 === 0) pacer.prune(clock);
    if (pacer.nextSlot(next!.chat, clock) > clock) continue; // an estimate: look again later
    const queue = queues.get(next!.chat)!;
    const message = queue.shift()!;
    if (queue.length === 0) queues.delete(next!.chat);
    pacer.book(next!.chat, clock);
    inFlight.set(next!.chat, { sentAt: clock, answerAt: clock + message.latency });
    received.push({ chat: next!.chat, received: clock + message.receivedAt * message.latency });
  }
  return received;
}

const messagesArb = fc
  .array(
    fc.record({
      chat: fc.constantFrom(...PRIVATE, ...GROUPS),
      gap: fc.integer({ min: 0, max: 1500 }),
      latency: fc.integer({ min: 1, max: 800 }),
      receivedAt: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { minLength: 1, maxLength: 120 },
  )
  .map((items) => {
    let t = 0;
    return items.map(({ chat, gap, latency, receivedAt }) => ({
      chat,
      arrival: (t += gap),
      latency,
      receivedAt,
    }));
  });

describe("pacer", () => {
  it("keeps every limit where Telegram receives the calls, whatever each call's latency", () => {
    fc.assert(
      fc.property(messagesArb, (messages) => {
        const received = simulate(messages);
        expect(received).toHaveLength(messages.length);
        for (const chat of [...PRIVATE, ...GROUPS]) {
          const times = received.filter((r) => r.chat === chat).map((r) => r.received);
          for (let i = 1; i < times.length; i++)
            expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
          if (chat < 0n) expect(maxInWindow(times, 60_000)).toBeLessThanOrEqual(20);
        }
        expect(
          maxInWindow(
            received.map((r) => r.received),
            1000,
          ),
        ).toBeLessThanOrEqual(GLOBAL);
      }),
      { numRuns: 200 },
    );
  });

  it("does not delay a message that no limit holds back", () => {
    const pacer = createPacer(limits);
    expect(pacer.nextSlot(11n, 5000)).toBe(5000);
    pacer.book(11n, 5000);
    expect(pacer.nextSlot(12n, 5000)).toBe(5000); // other chats go at once, up to the global cap
    pacer.answered(11n, 5000, 5200);
    expect(pacer.nextSlot(11n, 5300)).toBe(6300); // the interval, plus the margin, from the answer
    expect(pacer.nextSlot(11n, 9000)).toBe(9000);
  });

  it("lets a group burst 20 messages, then waits until the first answer is a minute old", () => {
    const pacer = createPacer(limits);
    let t = 0;
    for (let i = 0; i < 20; i++) {
      t = pacer.nextSlot(-1001n, t);
      pacer.book(-1001n, t);
      pacer.answered(-1001n, t, t + 10);
      t += 10;
    }
    expect(t).toBe(19 * 1110 + 10);
    expect(pacer.nextSlot(-1001n, t)).toBe(10 + 60_100);
  });

  it("caps the calls per second across chats, counting from their answers", () => {
    const pacer = createPacer(limits);
    for (let i = 0; i < GLOBAL; i++) pacer.book(BigInt(100 + i), 0);
    expect(pacer.nextSlot(200n, 0)).toBeGreaterThan(0); // the oldest of the last five is in flight
    pacer.answered(100n, 0, 300);
    expect(pacer.nextSlot(200n, 400)).toBe(300 + 1100);
  });

  it("holds a chat back until a 429's retry_after has passed, and reports it busy meanwhile", () => {
    const pacer = createPacer(limits);
    pacer.blockUntil(11n, 30_000);
    expect(pacer.nextSlot(11n, 1000)).toBe(30_000);
    expect(pacer.busyChats(1000, 6000)).toEqual([11n]);
    expect(pacer.busyChats(26_000, 31_000)).toEqual([]);
    expect(pacer.nextSlot(12n, 1000)).toBe(1000);
  });

  it("forgets history that no longer constrains anything", () => {
    const pacer = createPacer(limits);
    pacer.book(11n, 0);
    pacer.answered(11n, 0, 10);
    pacer.book(-1001n, 0);
    pacer.answered(-1001n, 0, 10);
    pacer.prune(1200);
    expect(pacer.knows(11n)).toBe(false);
    expect(pacer.knows(-1001n)).toBe(true); // a group's minute is not over
    pacer.prune(70_000);
    expect(pacer.knows(-1001n)).toBe(false);
    expect(pacer.nextSlot(-1001n, 70_000)).toBe(70_000);
  });

  it("forgets every call for a new term, but not what a 429 blocked", () => {
    const pacer = createPacer(limits);
    pacer.book(11n, 0);
    pacer.answered(11n, 0, 10);
    pacer.book(-1001n, 0);
    pacer.blockUntil(-1001n, 30_000);
    pacer.forgetCalls();
    expect(pacer.knows(11n)).toBe(false);
    expect(pacer.nextSlot(11n, 20)).toBe(20);
    expect(pacer.nextSlot(-1001n, 20)).toBe(30_000);
  });
});
