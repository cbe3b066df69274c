// The core's Lua scripts, called by SHA (EVALSHA, then EVAL once on NOSCRIPT). Each reads,
// compares and writes in one atomic step: no gap in which the lock could change hands.
import { createHash } from "node:crypto";
import { LockUnavailableError, type LockRedisClient } from "./types.ts";

export type ScriptClient = Pick<LockRedisClient, "evalsha" | "eval">;

/** @example await new LuaScript("return redis.call('GET', KEYS[1])").run(redis, [key], []) */
export class LuaScript {
  readonly sha: string;
  constructor(readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  /** EVALSHA, and EVAL once when the server does not know the script (fresh start, failover). */
  async run(redis: ScriptClient, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
      return await redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

/** nextFence(retentionMs), in front of every acquiring script (KEYS[2], the counter): the larger of
 * counter + 1 and the server clock in µs, so fences grow when the counter is gone (past its
 * retention) or behind (a replica promoted early), unless one µs or the new primary's clock fails. */
export const FENCE_LUA = `local function nextFence(retentionMs)
  local now = redis.call('TIME')
  local floor = tonumber(now[1]) * 1000000 + tonumber(now[2])
  local fence = tonumber(redis.call('GET', KEYS[2]) or '0') + 1
  if fence < floor then fence = floor end
  redis.call('SET', KEYS[2], string.format('%d', fence), 'PX', retentionMs)
  return fence
end
`;

/** KEYS lock, fence; ARGV token, ttl, retention. {1, fence} when acquired, {0, pttl} when taken.
 * A token that already holds it (a client resent the try after a reconnect) gets it again, with
 * the fence it took (or a new one, the counter gone). */
export const tryScript = new LuaScript(
  `${FENCE_LUA}
local retention = math.max(tonumber(ARGV[3]), tonumber(ARGV[2]))
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {1, nextFence(retention)}
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  local fence = tonumber(redis.call('GET', KEYS[2]) or '0')
  if fence == 0 then fence = nextFence(retention) end
  return {1, fence}
end
return {0, redis.call('PTTL', KEYS[1])}`,
);

/** KEYS lock, fence; ARGV token, ttl, retention. 1: extended (and the counter), 0: not ours. */
export const extendScript = new LuaScript(
  `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if KEYS[2] then redis.call('PEXPIRE', KEYS[2], math.max(tonumber(ARGV[3]), tonumber(ARGV[2]))) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`,
);

/** KEYS lock; ARGV token. 1 when released, 0 when the lock is not ours (nothing deleted). */
export const releaseScript = new LuaScript(
  `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`,
);

/** Replies that still mean "cannot serve a lock now"; any other reply error is an answer. */
const UNAVAILABLE = /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY|NOREPLICAS|OOM)\b/;

/** One command under a timeout of our own (a hung client must not hang us). Unreachable Redis
 * rejects with LockUnavailableError; reply errors pass unchanged. A timed-out command may still
 * run: the caller decides what to undo. `send` must reject, never throw (as ioredis and run do). */
export function runCommand<R>(command: string, kind: string, send: () => Promise<R>, ms: number) {
  return new Promise<R>((resolve, reject) => {
    const fail = (error: unknown) => reject(unavailable(error, command, kind));
    const timer = setTimeout(() => fail(new Error("Command timed out")), ms).unref();
    send()
      .then(resolve, fail)
      .finally(() => clearTimeout(timer));
  });
}

/** ioredis's errors for a connection that is down, closing or timing out. */
const DISCONNECTED =
  /^(Command timed out|Connection is (closed|aborted|discarded)|Stream isn't writeable|Cluster (is|isn't)|None of startup nodes|Node is disconnected|Too many Cluster redirections|Socket timeout|Ready check failed|connect E)/;
const CONNECTION_ERRORS = ["AbortError", "MaxRetriesPerRequestError", "ClusterAllFailedError"];

/** `error` as LockUnavailableError when Redis cannot serve a lock now; a reply error or a bug as is. */
function unavailable(error: unknown, command: string, kind: string): unknown {
  if (!(error instanceof Error)) return error;
  const { message, name } = error;
  const code = (error as { code?: unknown }).code;
  const down =
    name === "ReplyError"
      ? UNAVAILABLE.test(message)
      : CONNECTION_ERRORS.includes(name) ||
        DISCONNECTED.test(message) ||
        /^E[A-Z]+$/.test(`${code}`);
  if (!down) return error;
  const reason =
    message === "Command timed out" ? "timeout" : message.startsWith("OOM ") ? "oom" : "connection";
  const text = `Redis unavailable for lock ${command}: ${message}`;
  return new LockUnavailableError(text, reason, kind, error);
}

/** Whether a failed command may still have run in Redis: it was written, its reply never came. */
export function mayHaveRun(error: unknown): boolean {
  if (!(error instanceof LockUnavailableError)) return false;
  if (error.reason === "timeout") return true;
  const cause = error.cause instanceof Error ? error.cause.message : "";
  return error.reason === "connection" && !NOT_SENT.test(cause);
}
/** ioredis's errors for a command it never wrote to the socket. */
const NOT_SENT = /^(Stream isn't writeable|connect E|None of startup nodes|Cluster isn't ready)/;
