// One Bot API call, start to finish: find the method, apply injected faults, run it, answer in
// Telegram's envelope, and record it.
import { setTimeout as sleep } from "node:timers/promises";
import { Args } from "./args.ts";
import { BotApiError, internalError, notFound } from "./errors.ts";
import type { Faults } from "./faults.ts";
import { Described, type KitContext, targetChatId } from "./methods/context.ts";
import { findMethod } from "./methods/index.ts";
import type { RecordedCall, Recorder } from "./recorder.ts";

export interface Envelope {
  ok: boolean;
  result?: unknown;
  description?: string;
  error_code?: number;
  parameters?: { retry_after?: number };
}

export interface DispatchDeps {
  ctx: KitContext;
  faults: Faults;
  recorder: Recorder;
  /** Called with errors that are bugs of the fake (not Bot API errors), for its log. */
  onInternalError: (error: unknown, method: string) => void;
}

export interface Dispatched {
  status: number;
  body: Envelope;
  /** The method ran, and its answer is to be lost (a `loseAnswer` fault). */
  lost?: boolean;
}

export async function dispatch(
  deps: DispatchDeps,
  methodName: string,
  fields: Record<string, unknown>,
  via: RecordedCall["via"],
  signal: AbortSignal,
): Promise<Dispatched> {
  const at = Date.now();
  const args = new Args(fields);
  const method = findMethod(methodName);
  const chatId = targetChatId(args);
  let fault: RecordedCall["fault"];
  let status = 200;
  let body: Envelope;
  try {
    if (!method) throw notFound();
    const decision = deps.faults.decide(method.name, chatId);
    if (decision.latencyMs > 0) await sleep(decision.latencyMs, undefined, { ref: false });
    await deps.faults.passHolds(method.name);
    if (decision.hangs) await untilEither(decision.hangs, signal);
    if (decision.error || decision.losesAnswer) fault = decision.kind;
    if (decision.error) throw decision.error;
    const value: unknown = await method.handler(deps.ctx, args, { signal });
    body =
      value instanceof Described
        ? { ok: true, result: value.result, description: value.description }
        : { ok: true, result: value };
  } catch (error) {
    const apiError = error instanceof BotApiError ? error : internalError();
    if (!(error instanceof BotApiError)) deps.onInternalError(error, methodName);
    status = apiError.errorCode;
    body = apiError.toJSON();
  }
  deps.recorder.add({
    at,
    method: method?.name ?? methodName,
    params: args.toRecord(),
    ...(chatId !== undefined ? { chatId } : {}),
    ok: body.ok,
    ...(body.ok
      ? { result: body.result }
      : { errorCode: status, description: body.description ?? "" }),
    ...(fault ? { fault } : {}),
    durationMs: Date.now() - at,
    via,
  });
  return { status, body, ...(fault === "lost" ? { lost: true } : {}) };
}

/** Waits for `settled`, or for the client to go away. */
function untilEither(settled: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => (signal.removeEventListener("abort", done), resolve());
    signal.addEventListener("abort", done, { once: true });
    void settled.then(done);
  });
}
