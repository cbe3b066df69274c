// The set-up most lock tests share: managers on the shared test Redis, opened in the file's (or
// block's) beforeAll and closed in its afterAll, with the helpers waiting tests use.
import { afterAll, beforeAll } from "vitest";
import type { Lease } from "../src/index.ts";
import { ownRedis, sharedRedis, type RedisServer, type SharedRedisFixture } from "./support.ts";

export interface FileRedis extends Omit<SharedRedisFixture, "dispose"> {
  /** Takes `id` of kind "order" on a manager of its own, or throws. */
  hold(id: string, ttlMs?: number): Promise<Lease>;
  /** How many wait in line for `key` (the fair-waiting layer's queue). */
  lineOf(key: string): Promise<number>;
}

/**
 * sharedRedis, opened in beforeAll and disposed in afterAll. Its fields are there from that
 * beforeAll on; its functions may be taken apart (`const { hold } = fx`).
 *
 * @example
 * const fx = useSharedRedis();
 * it("...", async () => { const locks = await fx.make(); });
 */
export function useSharedRedis(): FileRedis {
  let opened: SharedRedisFixture | undefined;
  const open = (): SharedRedisFixture => {
    if (!opened) throw new Error("the shared Redis opens in the fixture's beforeAll");
    return opened;
  };
  beforeAll(async () => {
    opened = await sharedRedis();
  });
  afterAll(() => opened?.dispose());
  return {
    get test() {
      return open().test;
    },
    get managers() {
      return open().managers;
    },
    make: (overrides) => open().make(overrides),
    async hold(id, ttlMs = 5000) {
      const locks = await open().make();
      const result = await locks.acquire({ kind: "order", id }, { ttlMs, waitMs: 0 });
      if (!result.ok) throw new Error(`could not take ${id}`);
      return result.lease;
    },
    lineOf: (key) => open().test.redis.zcard(`${key}:queue`),
  };
}

/**
 * `open()` in beforeAll and `close` in afterAll; the fields of what it opened read through from
 * that beforeAll on.
 */
export function useOpened<T extends object>(
  open: () => Promise<T>,
  close: (opened: T) => Promise<unknown>,
): T {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(() => opened && close(opened));
  return new Proxy({} as T, {
    get(_, field) {
      if (!opened) throw new Error("a fixture opens in its beforeAll: use it in a hook or a test");
      return Reflect.get(opened, field);
    },
  });
}

/**
 * A redis-server of the file's (or block's) own, for what the shared one must not suffer: started
 * in beforeAll, disposed in afterAll (after the hooks registered later have closed its clients).
 *
 * @example
 * const server = useOwnRedis(["--maxmemory-policy", "noeviction"]);
 */
export function useOwnRedis(args: string[] = []): Omit<RedisServer, "dispose"> {
  return useOpened(
    () => ownRedis(args),
    (server) => server.dispose(),
  );
}
