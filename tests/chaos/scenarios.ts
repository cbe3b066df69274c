// The scenarios: one per fault, then all of them in one sale. Each fault starts at a share of the
// arrival window, so it lands in the middle of the load.
import type { Fault } from "./fault.ts";
import { killBot, pauseBot } from "./faults/bots.ts";
import { floodFault } from "./faults/flood.ts";
import { groupAtFloodLimit } from "./faults/group-flood.ts";
import { postgresPastRetryWindow } from "./faults/postgres-outage.ts";
import { poisonPayment } from "./faults/poison-update.ts";
import { fillRedisFault } from "./faults/redis-full.ts";
import { killWorker, restartPostgres, restartRedisFault } from "./faults/services.ts";
import { duplicateDeliveries, telegramErrorBursts } from "./faults/telegram.ts";
import { HANG_CALL_TIMEOUT_MS, telegramHangs } from "./faults/telegram-hangs.ts";
import { webhookPastReconcileGrace } from "./faults/webhook-outage.ts";

export interface Scenario {
  name: string;
  faults: Fault[];
  /** Run with one bot polling getUpdates (the webhook bots stand by) instead of webhooks. */
  polling?: boolean;
  /** Settings of that polling bot's own. */
  pollingEnv?: Record<string, string>;
  /** The share of the run's shoppers it needs (default 1): a fault that needs less load costs less. */
  userShare?: number;
}

export function scenarios(options: { baseline: boolean }): Scenario[] {
  return [
    ...(options.baseline ? [{ name: "no faults", faults: [] }] : []),
    { name: "kill -9 bot", faults: [killBot(0.35)] },
    { name: "SIGSTOP bot", faults: [pauseBot(0.3)] },
    { name: "restart Redis", faults: [restartRedisFault(0.4)] },
    { name: "Redis filled to its memory limit", faults: [fillRedisFault(0.4)] },
    { name: "restart PostgreSQL", faults: [restartPostgres(0.4)] },
    {
      name: "polling: PostgreSQL down past the retry window",
      faults: [postgresPastRetryWindow(0.3)],
      polling: true,
    },
    {
      name: "a poison update in polling mode while customers keep buying",
      faults: [poisonPayment(0.15)],
      polling: true,
    },
    { name: "Telegram 429/500", faults: [telegramErrorBursts()] },
    {
      name: "polling: Telegram hangs past the clients' timeout",
      faults: [telegramHangs(0.2)],
      polling: true,
      pollingEnv: { TELEGRAM_CALL_TIMEOUT_MS: String(HANG_CALL_TIMEOUT_MS) },
      userShare: 0.5,
    },
    { name: "duplicate deliveries", faults: [duplicateDeliveries()] },
    { name: "kill -9 worker", faults: [killWorker(0.5)] },
    { name: "a flood of updates from a few users during a sale", faults: [floodFault(0.2)] },
    { name: "the operator group at its flood limit", faults: [groupAtFloodLimit(0.2)] },
    {
      name: "webhook unreachable past the reconciliation grace while the worker runs",
      faults: [webhookPastReconcileGrace(0.2)],
    },
    {
      name: "all combined",
      faults: [
        telegramErrorBursts(),
        duplicateDeliveries(),
        killBot(0.1),
        restartRedisFault(0.3, 4_000),
        pauseBot(0.15),
        restartPostgres(0.9),
        killWorker(0.85),
      ],
    },
  ];
}
