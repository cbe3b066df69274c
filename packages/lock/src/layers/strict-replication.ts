// Layer: strict replication. After acquiring, WAIT until `replicas` replicas have the lock, or
// give it back and fail with LockUnavailableError (reason "replication").
//
// What it adds: on a primary with replicas (Sentinel), a lock the caller holds survives a
// failover to one of those replicas, so two holders cannot both be told "yours" across it.
// What it costs: this file, one more connection, and one more round trip per acquisition (WAIT,
// up to `timeoutMs`).
// WAIT blocks the connection it is sent on, so it runs on a connection of its own: renewals and
// releases never queue behind it. WAIT counts the writes of that connection, so the same pipeline
// first rewrites the lock's expiry to its own value, owner-checked: a replica that acknowledges
// that write has the lock, even on a connection that has just reconnected. On a Cluster the
// pipeline goes whole to the primary that owns the key's slot.
// When to leave it out: a single Redis, or where the fence checked by the storage is enough.
import { int } from "../core/requests.ts";
import {
  LockInputError,
  LockUnavailableError,
  type Layer,
  type Lease,
  type ReplicationLayer,
} from "../core/types.ts";
import type { RedisLockManager } from "../core/manager.ts";

/** The longest WAIT accepted: a longer one outlives any lease it could confirm.
 * @example strictReplication({ replicas: 1, timeoutMs: Math.min(timeout, MAX_REPLICATION_TIMEOUT_MS) }) */
export const MAX_REPLICATION_TIMEOUT_MS = 60_000;

type Pipeline = {
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Pipeline;
  wait(replicas: number, timeoutMs: number): Pipeline;
  exec(): Promise<[Error | null, unknown][] | null>;
};

/** The layer's own connection (an ioredis `Redis` or `Cluster`): pipelines, and a way to close.
 * @example strictReplication({ replicas: 1, timeoutMs: 50, connection: redis.duplicate() }) */
export type ReplicationConnection = { pipeline(): Pipeline; disconnect(): void };

export interface ReplicationOptions {
  replicas: number;
  timeoutMs: number; // 1 to MAX_REPLICATION_TIMEOUT_MS
  /** The connection WAIT blocks; by default a duplicate of the manager's, opened on first use. */
  connection?: ReplicationConnection;
}

/** KEYS lock; ARGV token. The lock's expiry rewritten to itself (a write WAIT can count), or -1
 * when the lock is not ours. Time stands still inside a script: the expiry moves by nothing. */
const TOUCH = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local left = redis.call('PTTL', KEYS[1])
if left < 1 then return -1 end
redis.call('PEXPIRE', KEYS[1], left)
return left`;

/** The manager's client must offer `duplicate()` (ioredis has), unless `connection` is given.
 * @example createLockManager({ ...options, layers: { replication: strictReplication({ replicas: 1, timeoutMs: 50 }) } }) */
export function strictReplication(options: ReplicationOptions): Layer<ReplicationLayer> {
  int(options?.replicas, "replication.replicas", 1, 100);
  int(options.timeoutMs, "replication.timeoutMs", 1, MAX_REPLICATION_TIMEOUT_MS);
  return (host) => {
    if (!options.connection && typeof host.redis.duplicate !== "function")
      throw new LockInputError("strict replication needs a connection or duplicate()", "redis");
    return new StrictReplication(host, options);
  };
}

class StrictReplication implements ReplicationLayer {
  #connection: ReplicationConnection | undefined;

  constructor(
    private readonly host: RedisLockManager,
    private readonly options: ReplicationOptions,
  ) {}

  /** Every lease, taken or handed over, is touched and waited for on the layer's connection. */
  async confirm(lease: Lease): Promise<void> {
    const { host } = this;
    const { replicas, timeoutMs } = this.options;
    let confirmed = false;
    try {
      const wait = () => this.#touchAndWait(lease);
      const acknowledged = await host.run(
        "wait",
        lease.kind,
        wait,
        timeoutMs + host.config.commandTimeoutMs,
      );
      if (acknowledged < 0)
        throw this.#unavailable(lease, "the lock expired before its replicas were asked");
      if (acknowledged < replicas)
        throw this.#unavailable(
          lease,
          `only ${acknowledged} of ${replicas} replicas acknowledged the lock within ${timeoutMs} ms`,
        );
      if (!lease.held)
        throw this.#unavailable(
          lease,
          "the replicas acknowledged the lock after its lease ran out",
        );
      confirmed = true;
    } finally {
      if (!confirmed) await lease.release().catch(() => "not-owner");
    }
  }

  close(): void {
    if (!this.options.connection) this.#connection?.disconnect();
    this.#connection = undefined;
  }

  /** How many replicas acknowledged the touch; -1 when the lock was no longer ours. */
  async #touchAndWait({ key, token }: Lease): Promise<number> {
    const { replicas, timeoutMs } = this.options;
    const pipeline = this.#open().pipeline().eval(TOUCH, 1, key, token).wait(replicas, timeoutMs);
    const [[touchError, left] = [null, 0], [waitError, acknowledged] = [null, 0]] =
      (await pipeline.exec()) ?? [];
    if (touchError ?? waitError) throw touchError ?? waitError;
    return Number(left) > 0 ? Number(acknowledged) : -1;
  }

  #open(): ReplicationConnection {
    if (this.#connection) return this.#connection;
    if (this.options.connection) return (this.#connection = this.options.connection);
    const options = { enableOfflineQueue: true, connectionName: "orderbot-lock-replication" };
    const own = this.host.redis.duplicate!(options) as ReplicationConnection & {
      on(event: "error", listener: (error: Error) => void): unknown;
    };
    // While it is down, confirmations fail as unavailable; the manager's client logs the outage.
    own.on("error", (error) => {
      this.host.logger.debug({ err: error.message }, "lock replication connection error");
    });
    return (this.#connection = own);
  }

  #unavailable(lease: Lease, message: string): LockUnavailableError {
    return new LockUnavailableError(message, "replication", lease.kind);
  }
}
