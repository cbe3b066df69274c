// getChatAdministrators runs under the group's `group-admins` lock with the lease's signal (as
// worker.ts wires the admin-refresh job): when the lease ends (its hold cap here, a failover
// elsewhere), the call is aborted instead of keeping the job waiting on a Telegram that does not
// answer, and the cached list stays as it was.
import { beforeAll, describe, expect, it } from "vitest";
import { LOCK_KINDS } from "@orderbot/core";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import { startedUser } from "../support/kit.ts";
import { useWorkerShop } from "../support/shop.ts";
import type { InProcessWorker } from "../support/worker.ts";

const CAP_MS = 600;
const CLIENT_TIMEOUT_MS = 10_000; // the test worker's grammY timeoutSeconds

const fixture = useWorkerShop({ poolMax: 5 });
let tg: FakeTelegram;
let worker: InProcessWorker;

beforeAll(async () => {
  tg = fixture.tg;
  worker = await fixture.startWorker(
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

describe("admin-refresh under the group-admins lease", () => {
  it("aborts a getChatAdministrators that outlives the lease", async () => {
    const admin = await startedUser(tg);
    const group = tg.createGroup({ title: "Ops", admins: [admin] });
    // Listed once, long ago: stale, so the job fetches; a failed fetch keeps this list.
    await fixture.db.operatorGroup.create({
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
    const row = await fixture.db.operatorGroup.findUniqueOrThrow({
      where: { chatId: BigInt(group.id) },
    });
    expect(row.adminsRefreshedAt).toEqual(new Date(0)); // nothing written by the aborted refresh
  });
});
