// Layer: strict replication. After acquiring, WAIT until `replicas` replicas have the lock, or
// give it back and fail with LockUnavailableError (reason "replication").
//
// What it adds: on a primary with replicas (Sentinel), a lock the caller holds survives a
// failover to one of those replicas, so two holders cannot both be told "yours" across it.
// What it costs: this file and one more round trip per acquisition (WAIT, up to `timeoutMs`); a
// lock handed over by another client's release is renewed once first (WAIT covers only this
// connection's writes).
// When to leave it out: a single Redis, or where the fence checked by the storage is enough.
import {
  LockInputError,
  LockUnavailableError,
  type Layer,
  type ReplicationLayer,
} from "../core/types.ts";

export interface ReplicationOptions {
  replicas: number;
  timeoutMs: number;
}

/** The redis client must have `wait(replicas, timeoutMs)` (ioredis has). */
export function strictReplication(options: ReplicationOptions): Layer<ReplicationLayer> {
  const { replicas, timeoutMs } = options;
  for (const [field, value] of Object.entries({ replicas, timeoutMs }))
    if (!Number.isInteger(value) || value < 1)
      throw new LockInputError(
        `replication.${field} must be a positive integer`,
        `replication.${field}`,
      );
  return (host) => {
    const redis = host.redis;
    if (typeof redis.wait !== "function")
      throw new LockInputError("strict replication needs a client with wait()", "redis");
    const wait = redis.wait.bind(redis);
    return {
      async confirm(lease, handedOver) {
        let confirmed = false;
        let acknowledged = 0;
        try {
          if (handedOver && !(await lease.extend()))
            throw new LockUnavailableError(
              "a lock handed to this waiter could not be confirmed (it was lost)",
              "replication",
              lease.kind,
            );
          acknowledged = await host.run(
            "wait",
            lease.kind,
            () => wait(replicas, timeoutMs),
            timeoutMs + host.config.commandTimeoutMs,
          );
          if (acknowledged < replicas)
            throw new LockUnavailableError(
              `only ${acknowledged} of ${replicas} replicas acknowledged the lock within ${timeoutMs} ms`,
              "replication",
              lease.kind,
            );
          confirmed = true;
        } finally {
          if (!confirmed) await lease.release().catch(() => "not-owner");
        }
      },
    };
  };
}
