// Layer: strict replication. After acquiring, WAIT until `replicas` replicas have the lock, or
// give it back and fail with LockUnavailableError (reason "replication").
//
// What it adds: on a primary with replicas (Sentinel), a lock the caller holds survives a
// failover to one of those replicas, so two holders cannot both be told "yours" across it.
// What it costs: this file and one more round trip per acquisition (WAIT, up to `timeoutMs`).
// WAIT counts only the writes of the connection it is sent on: on a Cluster client it goes, in a
// pipeline with the lock's key, to the primary that owns the key's slot (sent alone, ioredis would
// send it to a random primary, which answers at once with its own replicas).
// When to leave it out: a single Redis, or where the fence checked by the storage is enough.
import {
  LockInputError,
  LockUnavailableError,
  type Layer,
  type ReplicationLayer,
} from "../core/types.ts";

/** What a Cluster client offers: a pipeline sent whole to the primary of its keys' slot. */
type Pipelined = { isCluster?: boolean; pipeline?(): PipelineOf };
type PipelineOf = {
  wait(replicas: number, timeoutMs: number): PipelineOf;
  pttl(key: string): PipelineOf;
  exec(): Promise<[Error | null, unknown][] | null>;
};

export interface ReplicationOptions {
  replicas: number;
  timeoutMs: number;
}

/** The redis client must have `wait(replicas, timeoutMs)` (ioredis has).
 * @example createLockManager({ ...options, layers: { replication: strictReplication({ replicas: 1, timeoutMs: 50 }) } }) */
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
    const cluster = redis as Pipelined;
    if (cluster.isCluster && typeof cluster.pipeline !== "function")
      throw new LockInputError("strict replication on a Cluster needs pipeline()", "redis");
    const wait = async (key: string): Promise<number> => {
      if (!cluster.isCluster) return redis.wait!(replicas, timeoutMs);
      const [[error, acknowledged] = [null, 0]] =
        (await cluster.pipeline!().wait(replicas, timeoutMs).pttl(key).exec()) ?? [];
      if (error) throw error;
      return Number(acknowledged);
    };
    return {
      // Every lease is written by this connection, a hand-off confirmed by the waiter's own ask.
      async confirm(lease) {
        let confirmed = false;
        let acknowledged = 0;
        try {
          acknowledged = await host.run(
            "wait",
            lease.kind,
            () => wait(lease.key),
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
