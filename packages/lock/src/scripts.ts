// The Lua scripts, read once from the .lua files beside this one and called by SHA.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** The few commands the scripts need; a Redis or a Cluster client from ioredis fits. */
export interface ScriptClient {
  evalsha(sha: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * A Lua script called with EVALSHA. The first call on a server that does not know the script yet
 * (fresh start, failover, SCRIPT FLUSH) answers NOSCRIPT; the script is then sent once with EVAL,
 * which also caches it on the server, so later calls go by SHA again. The lock's own commands go
 * through CommandRunner.script, which sends it the same way under the command's timeout.
 */
export class LuaScript {
  readonly sha: string;
  constructor(
    readonly name: string,
    readonly source: string,
    /** How many of a call's arguments are keys (KEYS[1..n]); the rest are ARGV. */
    readonly keyCount: number,
  ) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  /**
   * EVALSHA with `keysAndArgs` (the keys first). Always a promise: a client that throws instead of
   * rejecting still rejects here. A server that does not know the script answers NOSCRIPT: see
   * `resend`.
   */
  send(redis: ScriptClient, keysAndArgs: (string | number)[]): Promise<unknown> {
    try {
      return redis.evalsha(this.sha, this.keyCount, ...keysAndArgs);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * What to do after `send` failed with `error`: when the server did not know the script
   * (NOSCRIPT), the EVAL that answers in its place (and caches the script there); otherwise
   * undefined, the failure being real. The one place of the rule: `run` and the command runner use it.
   */
  resend(
    error: unknown,
    redis: ScriptClient,
    keysAndArgs: (string | number)[],
  ): Promise<unknown> | undefined {
    if (!isNoScript(error)) return undefined;
    try {
      return redis.eval(this.source, this.keyCount, ...keysAndArgs);
    } catch (thrown) {
      return Promise.reject(thrown);
    }
  }

  /** `send`, then `resend` on NOSCRIPT, with the keys and the arguments apart. */
  run(redis: ScriptClient, keys: string[], args: (string | number)[]): Promise<unknown> {
    if (keys.length !== this.keyCount)
      return Promise.reject(
        new TypeError(`${this.name}.lua takes ${this.keyCount} keys, got ${keys.length}`),
      );
    const keysAndArgs = [...keys, ...args];
    return this.send(redis, keysAndArgs).catch(
      (error: unknown) => this.resend(error, redis, keysAndArgs) ?? Promise.reject(error),
    );
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT");
}

const read = (file: string) =>
  readFileSync(new URL(`./scripts/${file}.lua`, import.meta.url), "utf8");

/** The script in `name`.lua, taking `keyCount` keys, with the shared `functions` files sent in front of it. */
function load(name: string, keyCount: number, ...functions: string[]): LuaScript {
  return new LuaScript(name, [...functions, name].map(read).join("\n"), keyCount);
}

/** `{1, fence}` when acquired, `{0, pttl}` when taken: a caller's first attempt, which queues nobody. */
export const tryScript = load("try", 2, "fence");
/** `{1, fence}` (or `{1, fence, pttl}` when it had been handed over) when acquired, `{0, pttl, ms}` when busy. */
export const acquireScript = load("acquire", 4, "fence");
/** 1 when released (and handed to the first live waiter in line), 0 when the lock is not ours. */
export const releaseScript = load("release", 4, "fence");
/** 1 when extended, 0 when the lock is not ours. */
export const extendScript = load("extend", 1);
