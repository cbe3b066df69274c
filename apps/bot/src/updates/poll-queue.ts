import type { Update } from "grammy/types";
import type { Logger } from "@orderbot/platform";
import { carriesMoney } from "./money-updates.ts";
import { chatIdOf } from "./parse.ts";
import type { Parking } from "./parking.ts";
import { updateType, type ProcessUpdate } from "./pipeline.ts";

export interface PollQueueOptions {
  processUpdate: ProcessUpdate;
  logger: Logger;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  skipped?: { inc(labels: { kind: string }): void } | undefined;
  parking?: Parking | undefined;
  signal: AbortSignal;
}

/** An update fetched and not finished yet. */
interface Pending {
  update: Update;
  chat: number | string;
  running: boolean;
  /** Failed attempts so far. */
  failures: number;
  /** Not to be run again before (ms, performance.now()): after a failure, or while in progress elsewhere. */
  notBefore: number;
  /** Stored in parked_updates: the offset no longer waits for it. */
  parked: boolean;
}

/** The queue's state, which the steps below share. */
interface Queue {
  options: PollQueueOptions;
  pending: Map<number, Pending>;
  /** Finished and not confirmed yet: handed out again until the offset passes them. */
  finished: Set<number>;
  runs: Set<Promise<void>>;
  /** No parked-updates statement before this (ms): PostgreSQL may be down. */
  parkingDueAt: number;
  loaded: boolean;
}

/**
 * The poller's updates between fetch and confirmation: runs them (one chat's in order, chats side
 * by side), retries failures, gives up on those that carry no money, parks the ones that hold
 * the offset back, and says where the offset may move.
 */
export function createPollQueue(options: PollQueueOptions) {
  const q: Queue = {
    options,
    pending: new Map(),
    finished: new Set(),
    runs: new Set(),
    parkingDueAt: 0,
    loaded: options.parking === undefined,
  };
  return {
    add: (update: Update, parked = false) => add(q, update, parked),
    startRunnable: () => startRunnable(q),
    loadParked: () => loadParked(q),
    parkStuck: () => parkStuck(q),
    /** Whether an update the offset waits for is unfinished (Telegram then answers polls at once). */
    busy: () => [...q.pending.values()].some((p) => !p.parked),
    offset: (fetched: number) => nextOffset(q, fetched),
    settle: () => Promise.allSettled([...q.runs]),
  };
}

function parkedCount(q: Queue): number {
  return [...q.pending.values()].filter((p) => p.parked).length;
}

function blockedByEarlier(q: Queue, p: Pending): boolean {
  return [...q.pending.values()].some(
    (other) => other.chat === p.chat && other.update.update_id < p.update.update_id,
  );
}

function add(q: Queue, update: Update, parked: boolean): boolean {
  const id = update.update_id;
  if (q.pending.has(id) || q.finished.has(id)) return false;
  const chat = chatIdOf(update) ?? `update:${id}`;
  q.pending.set(id, { update, chat, running: false, failures: 0, notBefore: 0, parked });
  return true;
}

function finish(q: Queue, p: Pending): void {
  q.pending.delete(p.update.update_id);
  if (!p.parked) return void q.finished.add(p.update.update_id);
  q.options.parking?.release(p.update.update_id);
  q.options.parking?.count(parkedCount(q));
}

/** After a failure: due again after a growing pause, or given up on (never one with money). */
function failed(q: Queue, p: Pending): void {
  const { logger, maxAttempts, retryBaseMs, retryMaxMs } = q.options;
  p.failures += 1;
  const money = carriesMoney(p.update);
  const id = p.update.update_id;
  if (p.failures < maxAttempts || money) {
    retryAfter(q, p, Math.min(retryMaxMs, retryBaseMs * 2 ** (p.failures - 1)));
    // Said once per maxAttempts failures: loud enough to be seen, not a line per retry.
    if (money && p.failures % maxAttempts === 0)
      logger.error(
        { updateId: id, attempts: p.failures },
        "payment update still failing; retrying without limit (its chat's later updates wait)",
      );
    return;
  }
  const kind = updateType(p.update);
  logger.error(
    { updateId: id, updateType: kind, attempts: p.failures },
    "update skipped after repeated failures",
  );
  q.options.skipped?.inc({ kind });
  finish(q, p);
}

/** Due again after `ms`; a timer wakes it, since a long poll may outlast the pause. */
function retryAfter(q: Queue, p: Pending, ms: number): void {
  p.notBefore = performance.now() + ms;
  setTimeout(() => startRunnable(q), ms).unref();
}

async function run(q: Queue, p: Pending): Promise<void> {
  try {
    if ((await q.options.processUpdate(p.update)) === "in-progress")
      retryAfter(q, p, q.options.retryBaseMs);
    else finish(q, p);
  } catch {
    failed(q, p);
  } finally {
    p.running = false;
    startRunnable(q); // its chat's next update, if it waited for this one
  }
}

/** Starts every pending update that is due and not waiting for an earlier one of its chat. */
function startRunnable(q: Queue): void {
  if (q.options.signal.aborted) return;
  const now = performance.now();
  for (const p of [...q.pending.values()].sort((a, b) => a.update.update_id - b.update.update_id)) {
    if (p.running || p.notBefore > now || blockedByEarlier(q, p)) continue;
    p.running = true;
    const running = run(q, p);
    q.runs.add(running);
    void running.finally(() => q.runs.delete(running));
  }
}

/** Reads what an earlier run parked, once; until that works, tried again at most every second. */
async function loadParked(q: Queue): Promise<void> {
  const { parking } = q.options;
  if (q.loaded || !parking || performance.now() < q.parkingDueAt) return;
  const updates = await parking.load();
  if (!updates) return void (q.parkingDueAt = performance.now() + 1000);
  q.loaded = true;
  for (const update of updates) {
    const known = q.pending.get(update.update_id);
    if (known) known.parked = true;
    else if (q.finished.has(update.update_id)) parking.release(update.update_id);
    else add(q, update, true);
  }
  parking.count(parkedCount(q));
  startRunnable(q);
}

/**
 * The updates that hold the offset back for good: each failed (or was in progress elsewhere), or
 * waits behind such an update of its chat. An update that is merely slow is left alone.
 */
function stuck(q: Queue): Pending[] {
  const chats = new Set<number | string>();
  const found: Pending[] = [];
  for (const p of [...q.pending.values()].sort((a, b) => a.update.update_id - b.update.update_id)) {
    if (!(p.parked || p.failures > 0 || p.notBefore > 0 || chats.has(p.chat))) continue;
    chats.add(p.chat);
    if (!p.parked && !p.running) found.push(p);
  }
  return found;
}

/** Parks the stuck updates that are not running: the offset then moves past them. */
async function parkStuck(q: Queue): Promise<void> {
  const { parking } = q.options;
  if (!parking || performance.now() < q.parkingDueAt) return;
  const waiting = stuck(q);
  if (waiting.length === 0) return;
  if (!(await parking.park(waiting.map((p) => p.update))))
    return void (q.parkingDueAt = performance.now() + 1000);
  for (const p of waiting) {
    if (q.pending.has(p.update.update_id)) p.parked = true;
    else parking.release(p.update.update_id); // it finished while being stored
  }
  parking.count(parkedCount(q));
}

/** The next offset: everything before the first unfinished, unparked update is confirmed. */
function nextOffset(q: Queue, fetched: number): number {
  const waiting = [...q.pending.values()].filter((p) => !p.parked).map((p) => p.update.update_id);
  const all = Math.max(fetched, ...q.finished);
  const offset = waiting.length > 0 ? Math.min(...waiting) : all + 1;
  for (const id of q.finished) if (id < offset) q.finished.delete(id);
  return offset;
}
