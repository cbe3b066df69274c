// What the webhook bench sends updates to (a bot in a process of its own, or the bare route),
// and the senders that drive one on the shared runner: `/catalog` from users new to the bot.
import { closedLoop, Samples, STOP } from "@orderbot/testkit";
import type { ProfileShare } from "@orderbot/testkit";
import type { Child } from "./child.ts";

export const SENDERS = 32;
export const WEBHOOK_SECRET = "bench-webhook-secret_0123456789abcdef";

interface TargetBase {
  name: string;
  url: string;
  /** The users of this target's pool, each used once. */
  nextUser: number;
  lastUser: number;
  samples: Samples;
  elapsedMs: number;
  /** Webhook answers other than 200 during measured rounds. */
  webhookFailures: Record<string, number>;
  exhausted: boolean;
}

export interface BotTarget extends TargetBase {
  kind: "bot";
  child: Child;
  /** Updates answered 200 in the measured rounds, those still in flight at a round's end included. */
  handled: number;
  cpuMs: number;
  statements: number;
  commits: number;
  sqlByKind: Record<string, number>;
  redisCommands: number;
  redisByName: Record<string, number>;
  /** Bot API failures in every phase (warm-up and profile included). */
  apiFailures: Record<string, number>;
  /** Bot API calls in the measured rounds. */
  apiCalls: number;
  profile?: { totalMs: number; shares: ProfileShare[]; updates: number };
}

export interface RouteTarget extends TargetBase {
  kind: "route";
}

export type Target = BotTarget | RouteTarget;

function base(name: string, url: string, from: number, count: number): TargetBase {
  return {
    name,
    url,
    nextUser: from,
    lastUser: from + count - 1,
    samples: new Samples(),
    elapsedMs: 0,
    webhookFailures: {},
    exhausted: false,
  };
}

export function botTarget(
  name: string,
  url: string,
  child: Child,
  from: number,
  count: number,
): BotTarget {
  return {
    ...base(name, url, from, count),
    kind: "bot",
    child,
    handled: 0,
    cpuMs: 0,
    statements: 0,
    commits: 0,
    sqlByKind: {},
    redisCommands: 0,
    redisByName: {},
    apiFailures: {},
    apiCalls: 0,
  };
}

export function routeTarget(name: string, url: string): RouteTarget {
  return { ...base(name, url, 9_000_000_001, Number.MAX_SAFE_INTEGER), kind: "route" };
}

let nextUpdateId = 1;

function catalogUpdate(userId: number) {
  return {
    update_id: nextUpdateId++,
    message: {
      message_id: 2,
      date: Math.floor(Date.now() / 1000),
      chat: { id: userId, type: "private", first_name: "Bench" },
      from: { id: userId, is_bot: false, first_name: "Bench", language_code: "en" },
      text: "/catalog",
      entities: [{ type: "bot_command", offset: 0, length: 8 }],
    },
  };
}

export const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
};

/** SENDERS loops for `ms`; returns how many updates were answered 200. */
export async function drive(target: Target, ms: number, record: boolean): Promise<number> {
  let answered = 0;
  const send = async () => {
    if (target.nextUser > target.lastUser) {
      target.exhausted = true;
      return STOP;
    }
    const response = await fetch(target.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-telegram-bot-api-secret-token": WEBHOOK_SECRET,
      },
      body: JSON.stringify(catalogUpdate(target.nextUser++)),
    });
    await response.arrayBuffer();
    if (response.status === 200) answered++;
    return response.status;
  };
  const elapsed = await closedLoop(
    { clients: SENDERS, ms },
    send,
    record
      ? (latency, status) => {
          if (status === 200) target.samples.add(latency);
          else {
            const key = `webhook answered ${status}`;
            target.webhookFailures[key] = (target.webhookFailures[key] ?? 0) + 1;
          }
        }
      : undefined,
  );
  if (record) target.elapsedMs += elapsed;
  return answered;
}
