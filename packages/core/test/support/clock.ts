import type { Clock } from "../../src/index.ts";

/** A clock the test moves by hand; shared by every shop of a test so they agree on "now". */
export class TestClock implements Clock {
  #ms: number;
  constructor(start = Date.parse("2026-12-01T12:00:00Z")) {
    this.#ms = start;
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): Date {
    this.#ms += ms;
    return this.now();
  }
}
