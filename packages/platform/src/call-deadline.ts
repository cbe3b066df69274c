/** A call still unsettled at its deadline: whatever it does after, its caller has moved on. */
export class CallDeadlineError extends Error {
  override name = "CallDeadlineError";
  constructor(
    readonly call: string,
    readonly deadlineMs: number,
  ) {
    super(`${call} gave no answer within ${deadlineMs} ms`);
  }
}

/**
 * Runs `call` and settles within `deadlineMs`, whatever it does: at the deadline the signal it
 * was given aborts, and the promise rejects with `CallDeadlineError` even if `call` ignores the
 * abort. `outer` aborts it earlier. As a grammY API transformer, installed after every other one
 * that retries (`api.config.use`), it bounds each call and its retries, so that callers acting on
 * "the call has failed by now" can trust it.
 *
 * @example
 * bot.api.config.use(autoRetry({ maxRetryAttempts: 3 }));
 * bot.api.config.use((prev, method, payload, signal) =>
 *   withDeadline(20_000, method, (s) => prev(method, payload, s), signal),
 * );
 */
export function withDeadline<T>(
  deadlineMs: number,
  name: string,
  call: (signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  const deadline = new AbortController();
  // A listener removed when the call settles, not AbortSignal.any: on Node 20 that leaves an entry
  // on a long-lived `outer` for every call.
  const onOuter = () => deadline.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener("abort", onOuter, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new CallDeadlineError(name, deadlineMs));
      deadline.abort();
    }, deadlineMs);
    timer.unref();
  });
  return Promise.race([call(deadline.signal), expired]).finally(() => {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuter);
  });
}
