// Layer: strict replication. After acquiring, WAIT until `replicas` replicas have the lock, or
// give it back and report unavailable.
//
// What it adds: on a primary with replicas (Sentinel), a lock the caller holds survives a
// failover to one of those replicas, so two holders cannot both be told "yours" across it.
// What it costs: one more round trip per acquisition (WAIT, up to `timeoutMs`), and a renewal for
// a lock handed over by another client's release (WAIT covers only this connection's writes).
// When to leave it out: a single Redis, or where the fence checked by the storage is enough
// (options.replication unset: this file is then never used).
import { LockUnavailableError } from "./errors.ts";
import type { CommandRunner } from "./commands.ts";
import type { LockLease } from "./lease.ts";
import type { LockRedisClient } from "./types.ts";

export class StrictReplication {
  constructor(
    private readonly options: { replicas: number; timeoutMs: number },
    private readonly runner: CommandRunner,
    private readonly redis: Pick<LockRedisClient, "wait">,
    /** The manager's command timeout: WAIT may take its own bound plus this. */
    private readonly commandTimeoutMs: number,
  ) {}

  /** The lock counts only once enough replicas have it, else it is given back. */
  async replicate(lease: LockLease): Promise<void> {
    const { replicas, timeoutMs } = this.options;
    let acknowledged = 0;
    try {
      acknowledged = await this.runner.run(
        "wait",
        lease.metrics,
        lease.kind,
        () => this.redis.wait(replicas, timeoutMs),
        timeoutMs + this.commandTimeoutMs,
      );
    } finally {
      if (acknowledged < replicas) await lease.release().catch(() => "not-owner");
    }
    if (acknowledged < replicas) {
      throw new LockUnavailableError(
        `only ${acknowledged} of ${replicas} replicas acknowledged the lock within ${timeoutMs} ms`,
        { reason: "replication", kind: lease.kind },
      );
    }
  }

  /**
   * A lock handed over by another client's release: renew the lease once (a write of ours, after
   * the hand-off in the replication stream), then wait for the replicas.
   */
  async confirmHandover(lease: LockLease): Promise<void> {
    let renewed = false;
    try {
      renewed = await lease.renew(lease.ttlMs);
    } finally {
      if (!renewed) await lease.release().catch(() => "not-owner");
    }
    if (!renewed) {
      throw new LockUnavailableError(
        "a lock handed to this waiter could not be confirmed (it was lost)",
        { reason: "replication", kind: lease.kind },
      );
    }
    await this.replicate(lease);
  }
}
