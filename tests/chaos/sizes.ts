// How big a chaos run is. The full run is the flash sale (500+ users, 200 units over five
// products) per scenario; --quick keeps every scenario and fault but with fewer users, so that it
// fits in a few minutes on a 2-core machine shared with other work.
export interface Sizes {
  users: number;
  /** Users arrive over this many seconds. */
  seconds: number;
  stockPerProduct: number;
  maxQuantity: number;
  reservationSeconds: number;
  thinkMs: [number, number];
  /** How long Redis stays down in a restart, and PostgreSQL. */
  redisDownMs: number;
  postgresDownMs: number;
  /**
   * The polling scenario: the bot's retry window for a failing update (attempts, first and longest
   * pause) made short, and PostgreSQL kept down well past it while payments land.
   */
  pollRetry: { maxAttempts: number; baseMs: number; maxMs: number };
  pollingOutageMs: number;
  /** Users of the polling scenario: one polling process serves them all, as in production. */
  pollingUsers: number;
  /** Attempts at catching a bot holding an order lock before pausing it. */
  pauseAttempts: number;
  /** How long to wait for the shop to settle after a load (ms). */
  settleMs: number;
}

export const FULL: Sizes = {
  users: 520,
  seconds: 30,
  stockPerProduct: 40,
  maxQuantity: 3,
  reservationSeconds: 10,
  thinkMs: [100, 600],
  redisDownMs: 8_000,
  postgresDownMs: 4_000,
  pollRetry: { maxAttempts: 4, baseMs: 200, maxMs: 1_000 },
  pollingOutageMs: 9_000,
  pollingUsers: 160,
  pauseAttempts: 12,
  settleMs: 90_000,
};

export const QUICK: Sizes = {
  users: 80,
  seconds: 6,
  stockPerProduct: 12,
  maxQuantity: 3,
  reservationSeconds: 4,
  thinkMs: [50, 300],
  redisDownMs: 6_000,
  postgresDownMs: 3_000,
  pollRetry: { maxAttempts: 4, baseMs: 200, maxMs: 1_000 },
  pollingOutageMs: 7_000,
  pollingUsers: 80,
  pauseAttempts: 8,
  settleMs: 60_000,
};
