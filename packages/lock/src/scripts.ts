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
 * which also caches it on the server, so later calls go by SHA again.
 */
export class LuaScript {
  readonly sha: string;
  constructor(
    readonly name: string,
    readonly source: string,
  ) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  /** Always a promise: a client that throws instead of rejecting still rejects here. */
  async run(redis: ScriptClient, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT");
}

const read = (file: string) => readFileSync(new URL(`./scripts/${file}.lua`, import.meta.url), "utf8");

/** The script in `name`.lua, with the shared `functions` files sent in front of it. */
function load(name: string, ...functions: string[]): LuaScript {
  return new LuaScript(name, [...functions, name].map(read).join("\n"));
}

/** `{1, fence}` (or `{1, fence, pttl}` when it had been handed over) when acquired, `{0, pttl, ms}` when busy. */
export const acquireScript = load("acquire", "fence");
/** 1 when released (and handed to the first live waiter in line), 0 when the lock is not ours. */
export const releaseScript = load("release", "fence");
/** 1 when extended, 0 when the lock is not ours. */
export const extendScript = load("extend");
