// getChatAdministrators runs under the group's `group-admins` lock with the lease's signal (as
// worker.ts wires the admin-refresh job): when the lease ends (its hold cap here, a failover
// elsewhere), the call is aborted instead of keeping the job waiting on a Telegram that does not
// answer, and the cached list stays as it was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCK_KINDS } from "@orderbot/core";
import { startFakeTelegram, type FakeTelegram } from "@orderbot/fake-telegram";
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from "@orderbot/testkit";
import { startedUser } from "../support/kit.ts";
import { startWorker, type InProcessWorker } from "../support/worker.ts";

const CAP_MS = 600;
const CLIENT_TIMEOUT_MS = 10_000; // the test worker's grammY timeoutSeconds

let testDb: TestDatabase;
let t: TestRedis;
let tg: FakeTelegram;
let worker: InProcessWorker;

beforeAll(async () => {
  testDb = await createTestDatabase({ poolMax: 5 });
  t = await createTestRedis();
  tg = await startFakeTelegram();
  const services = {
    databaseUrl: testDb.url,
    redisUrl: t.url,
    namespace: t.namespace,
    apiRoot: tg.apiRoot,
    token: tg.token,
  };
  worker = await startWorker(
    testDb.db,
    services,
    {},
    {
      start: false,
      kinds: {
        ...LOCK_KINDS,
        "group-admins": { ...LOCK_KINDS["group-admins"], ttlMs: 300, maxHoldMs: CAP_MS },
      },
    },
  );
});
afterAll(async () => {
  await worker?.close();
  await tg?.close();
  await t?.cleanup();
  await testDb?.drop();
});

describe("admin-refresh under the group-admins lease", () => {
  it("aborts a getChatAdministrators that outlives the lease", async () => {
    const admin = await startedUser(tg);
    const group = tg.createGroup({ title: "Ops", admins: [admin] });
    // Listed once, long ago: stale, so the job fetches; a failed fetch keeps this list.
    await testDb.db.operatorGroup.create({
      data: {
        chatId: BigInt(group.id),
        title: "Ops",
        adminIds: [BigInt(admin.id)],
        adminsRefreshedAt: new Date(0),
        boundBy: BigInt(admin.id),
      },
    });

    const held = tg.faults.hold("getChatAdministrators"); // Telegram stops answering
    const started = Date.now();
    try {
      expect(await worker.worker.runOnce("admin-refresh")).toBe("ran");
      const tookMs = Date.now() - started;
      expect(tookMs).toBeGreaterThanOrEqual(CAP_MS - 100); // held until the lease ended...
      expect(tookMs).toBeLessThan(CLIENT_TIMEOUT_MS / 2); // ...not until the client gave up
      expect(held.waiting).toBe(1); // the call was made, and given up on while Telegram held it
    } finally {
      held.release();
    }
    const row = await testDb.db.operatorGroup.findUniqueOrThrow({
      where: { chatId: BigInt(group.id) },
    });
    expect(row.adminsRefreshedAt).toEqual(new Date(0)); // nothing written by the aborted refresh
  });
});
