import { describe, expect, it } from "vitest";
import { runTransaction, TransactionAbortedError } from "@orderbot/db";
import { useTestDatabase } from "@orderbot/testkit";
import { LeaseDeadlinePassedError, leaseGuardedSignal } from "../../src/jobs/lease-signal.ts";

const testDb = useTestDatabase({ poolMax: 2 });

/** A lease whose signal aborts 100 ms before it expires, as the lock module's would. */
const leaseExpiringAt = (expiresAt: number) => ({
  expiresAt,
  get abortsAt() {
    return this.expiresAt - 100;
  },
});

describe("leaseGuardedSignal", () => {
  it("reads as aborted once the lease's deadline has passed, before any timer has run", () => {
    const lease = leaseExpiringAt(Date.now() + 60_000);
    const { signal } = leaseGuardedSignal([], lease);
    let heard: unknown = null;
    signal.addEventListener("abort", () => (heard = signal.reason));
    expect(signal.aborted).toBe(false);
    lease.expiresAt = Date.now() + 50; // inside the safety margin
    expect(signal.aborted).toBe(true);
    expect(heard).toBeInstanceOf(LeaseDeadlinePassedError);
  });

  it("follows its sources, and ignores the clock when there is no lease (shared jobs)", () => {
    const source = new AbortController();
    const { signal } = leaseGuardedSignal([source.signal], null);
    expect(signal.aborted).toBe(false);
    source.abort(new Error("lost"));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("lost");
  });

  it("keeps a transaction from committing when its process was paused past the lease", async () => {
    const db = testDb.db;
    const product = await db.product.create({
      data: { sku: "PAUSE", titleEn: "p", titleZh: "p", priceMinor: 1, currency: "XTR", stock: 5 },
    });
    const lease = leaseExpiringAt(Date.now() + 60_000);
    const { signal } = leaseGuardedSignal([new AbortController().signal], lease);
    const attempt = runTransaction(
      db,
      async (tx) => {
        await tx.product.update({ where: { id: product.id }, data: { stock: 0 } });
        // What a SIGSTOP past the TTL looks like from inside: the deadline is gone, and no timer
        // has fired yet to say so.
        lease.expiresAt = Date.now() - 1;
      },
      { signal },
    );
    await expect(attempt).rejects.toBeInstanceOf(TransactionAbortedError);
    expect((await db.product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(5);
  });
});
