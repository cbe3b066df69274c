import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLockManager, type LockManager } from "@orderbot/lock";
import { createRedis, maskId, silentLogger, waitForRedis } from "@orderbot/platform";
import { createTestRedis, startRedisServer, type RedisServer, type TestRedis } from "@orderbot/testkit";
import { LOCK_KINDS } from "../../lock-kinds.ts";
import { createGroupAdmins, type FetchAdmins, type GroupAdminsDeps } from "../group-admins.ts";

const HASH_KEY = "group-admins-test-key";
const GROUP = -100123456789n;
const ADMIN = 111n;
const MEMBER = 222n;

let testRedis: TestRedis;
let locks: LockManager;

beforeAll(async () => {
  testRedis = await createTestRedis();
  locks = createLockManager({
    redis: testRedis.redis,
    namespace: testRedis.namespace,
    hashKey: HASH_KEY,
    kinds: LOCK_KINDS,
  });
});
afterAll(async () => {
  await locks.close();
  await testRedis.cleanup();
});

/**
 * A fake clock and a counting admin source (the bot's getChatAdministrators stands there). `admins`
 * checks with that source, like the bot does.
 */
function setup(
  overrides: Partial<GroupAdminsDeps> = {},
  namespace = `${testRedis.namespace}:${Math.random().toString(36).slice(2)}`,
) {
  const state = { now: 1_000_000, fetches: 0, admins: [ADMIN] as bigint[] };
  const fetchAdmins: FetchAdmins = async () => {
    state.fetches++;
    return [...state.admins];
  };
  const deps: GroupAdminsDeps = {
    redis: testRedis.redis,
    locks,
    namespace,
    mask: (id) => maskId(id, HASH_KEY),
    freshMs: 60_000,
    logger: silentLogger,
    now: () => state.now,
    ...overrides,
  };
  const service = createGroupAdmins(deps);
  const checker = (instance = service) => ({
    isAdmin: (chatId: bigint, userId: bigint) => instance.isAdmin(chatId, userId, fetchAdmins),
    forget: (chatId: bigint) => instance.forget(chatId),
  });
  return { state, deps, fetchAdmins, admins: checker(), checker };
}

describe("group admins", () => {
  it("answers from Telegram's list and caches it for every instance", async () => {
    const { state, deps, admins, checker } = setup();
    expect(await admins.isAdmin(GROUP, ADMIN)).toBe(true);
    expect(await admins.isAdmin(GROUP, MEMBER)).toBe(false);
    const otherInstance = checker(createGroupAdmins(deps));
    expect(await otherInstance.isAdmin(GROUP, ADMIN)).toBe(true);
    expect(state.fetches).toBe(1);
  });

  it("keeps no Telegram id in Redis", async () => {
    const { deps, admins } = setup();
    await admins.isAdmin(GROUP, ADMIN);
    const keys = await testRedis.redis.keys(`${deps.namespace}:*`);
    expect(keys).toHaveLength(1);
    const value = await testRedis.redis.get(keys[0]!);
    for (const text of [keys[0]!, value!]) {
      expect(text).not.toContain(String(GROUP).slice(1));
      expect(text).not.toContain(String(ADMIN));
    }
  });

  it("refreshes a stale list once, under the group-admins lock, while other checks use the cached list", async () => {
    const { state, deps, admins, checker, fetchAdmins } = setup();
    await admins.isAdmin(GROUP, ADMIN);
    state.now += 61_000;
    state.admins = [MEMBER]; // ADMIN was demoted, MEMBER promoted
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const fetching = new Promise<void>((resolve) => (entered = resolve));
    const slowFetch: FetchAdmins = async () => {
      entered();
      await held;
      return fetchAdmins();
    };
    const refreshing = createGroupAdmins(deps).isAdmin(GROUP, MEMBER, slowFetch);
    await fetching;
    // The refresher holds the lock: the others answer from the stale list without fetching.
    const others = await Promise.all([
      admins.isAdmin(GROUP, ADMIN),
      checker(createGroupAdmins(deps)).isAdmin(GROUP, MEMBER),
    ]);
    expect(others).toEqual([true, false]);
    release();
    expect(await refreshing).toBe(true);
    expect(state.fetches).toBe(2);
    expect(await admins.isAdmin(GROUP, ADMIN)).toBe(false);
    expect(state.fetches).toBe(2);
  });

  it("forget() makes the next check fetch again", async () => {
    const { state, admins } = setup();
    await admins.isAdmin(GROUP, ADMIN);
    await admins.forget(GROUP);
    state.admins = [];
    expect(await admins.isAdmin(GROUP, ADMIN)).toBe(false);
    expect(state.fetches).toBe(2);
  });

  describe("with Redis down", () => {
    let server: RedisServer;
    afterAll(() => server?.dispose());

    it("still answers, straight from Telegram", async () => {
      server = await startRedisServer();
      const redis = createRedis({ url: server.url, commandTimeoutMs: 200 });
      await waitForRedis(redis);
      const downLocks = createLockManager({
        redis,
        namespace: "down",
        hashKey: HASH_KEY,
        kinds: LOCK_KINDS,
        commandTimeoutMs: 200,
      });
      try {
        await server.stop();
        const { state, admins } = setup({ redis, locks: downLocks }, "down");
        expect(await admins.isAdmin(GROUP, ADMIN)).toBe(true);
        expect(await admins.isAdmin(GROUP, MEMBER)).toBe(false);
        expect(state.fetches).toBe(2);
      } finally {
        await downLocks.close();
        redis.disconnect();
      }
    });
  });
});
