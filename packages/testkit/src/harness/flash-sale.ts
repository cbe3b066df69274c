import { setTimeout as sleep } from "node:timers/promises";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import {
  runCustomer,
  type CustomerOptions,
  type CustomerResult,
  type Intent,
  type PlaceOutcome,
} from "./customer.ts";

export interface FlashSaleOptions extends Omit<CustomerOptions, "kit"> {
  kit: FakeTelegram;
  users: number;
  /** Users arrive over this many seconds (a crowd at the start, then a steady trickle). */
  seconds: number;
  /** Stops further arrivals (users already shopping finish). */
  signal?: AbortSignal;
  /**
   * Telegram ids of the shoppers count up from here (default: the kit's own). A database that
   * outlives runs needs new ids each run: the bot's idempotency keys include the user id.
   */
  firstUserId?: number;
}

export interface FlashSaleStats {
  started: number;
  done: number;
  placed: Record<PlaceOutcome, number>;
  intents: Record<Intent, number>;
  paid: number;
  payRefused: number;
  cancelled: number;
  /** Users whose product card showed it sold out (no Order button). */
  soldOutOnCard: number;
  /** Flows that stopped early, by reason. */
  cutShort: Map<string, number>;
}

export interface FlashSale {
  readonly stats: FlashSaleStats;
  readonly results: CustomerResult[];
  /** Resolves when every user has finished (or the signal aborted the arrivals). */
  finished: Promise<CustomerResult[]>;
}

function emptyStats(): FlashSaleStats {
  return {
    started: 0,
    done: 0,
    placed: { placed: 0, "out-of-stock": 0, unavailable: 0, busy: 0, limit: 0, other: 0 },
    intents: { pay: 0, cancel: 0, abandon: 0 },
    paid: 0,
    payRefused: 0,
    cancelled: 0,
    soldOutOnCard: 0,
    cutShort: new Map(),
  };
}

function count(stats: FlashSaleStats, result: CustomerResult): void {
  stats.done++;
  if (result.press) stats.placed[result.press.outcome]++;
  if (result.intent) stats.intents[result.intent]++;
  if (result.payment?.status === "paid") stats.paid++;
  else if (result.payment) stats.payRefused++;
  if (result.cancelled) stats.cancelled++;
  if (result.soldOutOnCard) stats.soldOutOnCard++;
  if (result.error) {
    const reason = result.error.replace(/\d+/g, "N").slice(0, 80);
    stats.cutShort.set(reason, (stats.cutShort.get(reason) ?? 0) + 1);
  }
}

/**
 * A flash sale: `users` simulated shoppers arrive over `seconds` (half of them in the first fifth,
 * as when a sale opens), each going through runCustomer. Stats update as users finish, for a
 * live display; `finished` resolves with every result.
 */
export function startFlashSale(options: FlashSaleOptions): FlashSale {
  const stats = emptyStats();
  const results: CustomerResult[] = [];
  const arrivals = Array.from({ length: options.users }, (_, i) => {
    const crowd = i < options.users / 2;
    const window = crowd ? options.seconds * 0.2 : options.seconds;
    return Math.floor(options.random() * window * 1000);
  }).sort((a, b) => a - b);

  const finished = (async () => {
    const started = Date.now();
    const flows: Promise<void>[] = [];
    for (const [i, at] of arrivals.entries()) {
      const wait = started + at - Date.now();
      if (wait > 0) await sleep(wait);
      if (options.signal?.aborted) break;
      const user = options.kit.createUser({
        ...(options.firstUserId === undefined ? {} : { id: options.firstUserId + i }),
        firstName: `Shopper${i + 1}`,
        // Regional variants exercise the bot's language negotiation; all of them read English.
        languageCode: options.random() < 0.8 ? "en" : "en-GB",
      });
      stats.started++;
      flows.push(
        runCustomer(user, options).then((result) => {
          results.push(result);
          count(stats, result);
        }),
      );
    }
    await Promise.all(flows);
    return results;
  })();
  return { stats, results, finished };
}

/** Who buys one product and pays, arriving over `seconds` like the sale's crowd. */
export interface BuyerOptions {
  kit: FakeTelegram;
  users: number;
  seconds: number;
  random: () => number;
  signal: AbortSignal;
  firstUserId: number;
}

/**
 * Shoppers who each buy `title` (1 to `maxQuantity` units) and pay: the demo's buyers of one kind
 * of goods beside the sale (digital-shopper.ts, physical-shopper.ts).
 */
export function startBuyers(
  options: BuyerOptions & { title: string; maxQuantity: number },
): FlashSale {
  const { title, ...rest } = options;
  return startFlashSale({
    ...rest,
    products: [{ title }],
    maxLines: 1,
    intents: { pay: 1, cancel: 0, abandon: 0 },
    thinkMs: [200, 1_000],
  });
}
