// Randomised ("decorrelated jitter") backoff: each delay is random between the base and three
// times the previous one, capped. Waiters that missed a release spread out instead of polling in
// lockstep; the release wake-up, not this timer, is what normally ends a wait.
export class Backoff {
  #previous: number;

  constructor(private readonly options: { baseMs: number; maxMs: number }) {
    this.#previous = options.baseMs;
  }

  next(): number {
    const { baseMs, maxMs } = this.options;
    this.#previous = Math.min(maxMs, baseMs + Math.random() * (this.#previous * 3 - baseMs));
    return this.#previous;
  }
}
