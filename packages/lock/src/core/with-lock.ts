// withLock: acquire, renew by watchdog while the task runs, release in `finally`. When Redis is
// out of reach, the kind's outage policy decides: refuse, skip, or run the task lockless on the
// database's guarantees. The policies live here, not in the breaker layer: a refused connection
// or a timeout is an outage with or without a breaker.
import type { LockLease } from "./lease.ts";
import type { RedisLockManager } from "./manager.ts";
import { int, kindOf } from "./requests.ts";
import { LockUnavailableError } from "./types.ts";
import type * as T from "./types.ts";

export async function withLock<R>(
  host: RedisLockManager,
  resource: T.LockResource,
  fn: (ctx: T.LockContext) => Promise<R>,
  options: T.WithLockOptions,
): Promise<T.LockOutcome<R>> {
  const { outage: policy, ...kind } = kindOf(host.config, resource?.kind);
  if (typeof fn !== "function") throw new TypeError("withLock needs a function to run under it");
  const caps = {
    renewals: options.maxRenewals ?? kind.maxRenewals,
    holdMs: options.maxHoldMs ?? kind.maxHoldMs,
  };
  if (caps.renewals !== undefined) int(caps.renewals, "maxRenewals", 0);
  if (caps.holdMs !== undefined) int(caps.holdMs, "maxHoldMs");

  let lease: LockLease;
  try {
    const result = await host.acquire(resource, options);
    if (!result.ok) return { status: "busy" };
    lease = result.lease as LockLease;
  } catch (error) {
    // Closing is no outage: fail rather than run lockless while another instance may hold it.
    if (!(error instanceof LockUnavailableError) || error.reason === "closed") throw error;
    const { requestId } = options;
    const line = { kind: resource.kind, requestId, policy, reason: error.reason };
    host.logger.warn(line, "lock unavailable: applying the kind's outage policy");
    if (policy === "refuse") return { status: "unavailable" };
    host.metrics(resource.kind).degraded(policy);
    if (policy === "skip") return { status: "skipped" };
    const signal = options.signal ?? new AbortController().signal;
    return { status: "ok", value: await fn({ lease: null, signal }), fence: null, degraded: true };
  }

  const stopWatchdog = watchdog(lease, caps, host);
  // The caller gave up while the task runs: no more renewals, the task is told through the
  // lease's signal, and the lock is released now rather than when the task ends.
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
    await lease.release().catch((error: Error) => {
      host.warn(lease, { err: error.message }, "lock release failed; the lock ends with its TTL");
    });
  }
}

/**
 * Renews every ttl/3 while the task runs (sooner the first time if less than a TTL is left),
 * never past the hold caps. A failed renewal aborts the lease's signal; a renewal that does not
 * land in time lets the lease's expiry guard abort it. Returns stop.
 */
function watchdog(
  lease: LockLease,
  caps: { renewals: number | undefined; holdMs: number | undefined },
  host: RedisLockManager,
): () => void {
  const metrics = host.metrics(lease.kind);
  const interval = Math.max(1, Math.floor(lease.ttlMs / 3));
  let renewals = 0;
  let stopped = false;
  const first = Math.min(interval, Math.floor((lease.expiresAt - Date.now()) / 3));
  let timer = host.setTimer(() => void tick(), Math.max(1, first));

  async function tick(): Promise<void> {
    if (stopped || !lease.held) return;
    let ttlMs = lease.ttlMs;
    if (caps.holdMs !== undefined)
      ttlMs = Math.min(ttlMs, lease.acquiredAt + caps.holdMs - Date.now());
    if ((caps.renewals !== undefined && renewals >= caps.renewals) || ttlMs <= 0)
      return lease.markCapped();
    if (ttlMs < lease.ttlMs) lease.markCapped(); // renewing for less than a TTL: the cap is near
    renewals += 1;
    try {
      const renewed = await lease.extend(ttlMs);
      if (stopped) return;
      metrics.renewed(renewed ? "ok" : "lost");
      if (renewed) timer = host.setTimer(() => void tick(), interval);
    } catch (error) {
      if (stopped) return;
      metrics.renewed("error");
      lease.lose("renewal-failed", error);
    }
  }

  return () => {
    stopped = true;
    host.clearTimer(timer);
  };
}
