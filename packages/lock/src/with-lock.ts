// withLock: acquire, renew by watchdog while the task runs, release in `finally`. When Redis is
// out of reach, the kind's outage policy decides, from the table below.
import { positiveInt } from "./config.ts";
import { LockUnavailableError } from "./errors.ts";
import type { LockLease } from "./lease.ts";
import type { KindMetrics } from "./metrics.ts";
import type { Timers } from "./timers.ts";
import type {
  LockContext,
  LockKindConfig,
  LockLogger,
  LockManager,
  LockOutcome,
  LockResource,
  OutagePolicy,
  WithLockOptions,
} from "./types.ts";

export interface WithLockDeps {
  kindConfig(kind: unknown): LockKindConfig;
  metrics(kind: string): KindMetrics;
  timers: Timers;
  logger: LockLogger;
}

type Lockless<T> = () => Promise<T>;

/** What each outage policy does when Redis cannot be reached: data, not scattered ifs. */
const ON_OUTAGE: { [P in OutagePolicy]: <T>(runLockless: Lockless<T>) => Promise<LockOutcome<T>> } =
  {
    refuse: async () => ({ status: "unavailable" }),
    skip: async () => ({ status: "skipped" }),
    "proceed-db-only": async (runLockless) => ({
      status: "ok",
      value: await runLockless(),
      fence: null,
      degraded: true,
    }),
  };

export async function withLock<T>(
  locks: Pick<LockManager, "acquire">,
  resource: LockResource,
  fn: (ctx: LockContext) => Promise<T>,
  options: WithLockOptions,
  deps: WithLockDeps,
): Promise<LockOutcome<T>> {
  const config = deps.kindConfig(resource?.kind);
  if (typeof fn !== "function")
    throw new TypeError("withLock needs a function to run under the lock");
  const maxRenewals = options.maxRenewals ?? config.maxRenewals;
  const maxHoldMs = options.maxHoldMs ?? config.maxHoldMs;
  if (maxRenewals !== undefined) positiveInt(maxRenewals, "maxRenewals", { zero: true });
  if (maxHoldMs !== undefined) positiveInt(maxHoldMs, "maxHoldMs");

  let lease: LockLease;
  try {
    const result = await locks.acquire(resource, options);
    if (!result.ok) return { status: "busy" };
    lease = result.lease as LockLease;
  } catch (error) {
    // A closed manager is shutting down, not an outage: the caller fails (the work is retried
    // elsewhere) rather than running lockless while another instance may hold the lock.
    if (!(error instanceof LockUnavailableError) || error.reason === "closed") throw error;
    const policy = config.outage;
    if (policy !== "refuse") deps.metrics(resource.kind).degraded(policy);
    deps.logger.warn(
      { kind: resource.kind, requestId: options.requestId, policy, reason: error.reason },
      "lock unavailable: applying the kind's outage policy",
    );
    return ON_OUTAGE[policy](() =>
      fn({ lease: null, signal: options.signal ?? new AbortController().signal }),
    );
  }

  const stopWatchdog = startWatchdog(lease, { maxRenewals, maxHoldMs }, deps);
  // The caller gave up while the task runs: no more renewals, the task is told through the
  // lease's signal, and the lock is released now rather than when the task gets round to ending.
  const callerSignal = options.signal;
  const cancel = () => {
    stopWatchdog();
    lease.abort(callerSignal!.reason);
    lease.release().catch(() => {}); // a failure is logged by the release in `finally`
  };
  if (callerSignal?.aborted) cancel();
  else callerSignal?.addEventListener("abort", cancel, { once: true });
  try {
    const value = await fn({ lease, signal: lease.signal });
    return { status: "ok", value, fence: lease.fence, degraded: false };
  } finally {
    callerSignal?.removeEventListener("abort", cancel);
    stopWatchdog();
    // Not ours any more is counted and logged by the lease; unreachable Redis lets the TTL end it.
    await lease.release().catch((error: unknown) =>
      deps.logger.warn(
        {
          kind: lease.kind,
          id: lease.keys.maskedId,
          requestId: lease.requestId,
          err: (error as Error).message,
        },
        "lock release failed; the lock ends with its TTL",
      ),
    );
  }
}

/**
 * Renews the lease every ttl/3 while the task runs (the first time sooner if the lease has less
 * than a TTL left: a lock handed over whose message was lost is found with part of its TTL gone).
 * A failed renewal aborts the lease's signal at once; a lease that cannot be renewed in time aborts
 * through its own expiry guard. Returns stop.
 */
function startWatchdog(
  lease: LockLease,
  caps: { maxRenewals?: number; maxHoldMs?: number },
  deps: WithLockDeps,
): () => void {
  const metrics = deps.metrics(lease.kind);
  const interval = Math.max(1, Math.floor(lease.ttlMs / 3));
  let renewals = 0;
  let stopped = false;
  let timer = deps.timers.set(
    tick,
    Math.max(1, Math.min(interval, Math.floor((lease.expiresAt - Date.now()) / 3))),
  );

  function tick(): void {
    if (stopped || !lease.held) return;
    let ttlMs = lease.ttlMs;
    if (caps.maxHoldMs !== undefined)
      ttlMs = Math.min(ttlMs, lease.acquiredAt + caps.maxHoldMs - Date.now());
    if ((caps.maxRenewals !== undefined && renewals >= caps.maxRenewals) || ttlMs <= 0) {
      lease.markCapped(); // the lease now runs out; its signal aborts before it does
      return;
    }
    if (ttlMs < lease.ttlMs) lease.markCapped(); // renewing for less than a full TTL: the hold cap is near
    renewals += 1;
    lease.renew(ttlMs).then(
      (renewed) => {
        if (stopped) return;
        metrics.renewed(renewed ? "ok" : "lost");
        if (renewed) timer = deps.timers.set(tick, interval);
      },
      (error: unknown) => {
        if (stopped) return;
        metrics.renewed("error");
        lease.lose("renewal-failed", error);
      },
    );
  }

  return () => {
    stopped = true;
    deps.timers.clear(timer);
  };
}
