import { runTransaction, type Database } from "@orderbot/db";
import { enqueueOutbox, type OutboxMessageInput } from "./messages.ts";
import type { Sql } from "../database/sql.ts";
import { chatIdParam } from "../database/sql.ts";
import { RETURNED, TABLES, type Source } from "./sources.ts";

/**
 * A claimed message. `claim` is the `next_attempt_at` the claim wrote: a visibility timeout that
 * hides the row from other relays until it passes, and the token every later write of this claim
 * is conditional on. A relay that stalls past it loses the message to the next claim, and its own
 * late writes change nothing.
 */
export interface ClaimedMessage {
  /** Its table: `outbox` (a message, or a notice the previous release queued) or `delivery` (an event's). */
  source: Source;
  id: number;
  dedupeKey: string;
  chatId: bigint;
  method: string;
  payload: unknown;
  /** Attempts including this one. */
  attempts: number;
  /** 0: first; 1: after every lane-0 message. */
  lane: number;
  claim: string;
  createdAt: Date;
}

interface ClaimRow {
  id: number;
  dedupe_key: string;
  chat_id: bigint;
  method: string;
  payload: unknown;
  attempts: number;
  claim: string;
  created_at: Date;
  lane: number;
}

export interface ClaimOptions {
  limit: number;
  /** How long the claim hides the messages from other relays (ms). */
  claimMs: number;
  /** Chats not to claim for now (the relay's pacing has no slot for them soon). */
  excludeChats?: readonly bigint[];
}

/**
 * Claims due PENDING rows of one table, lane 0 first, then oldest first, in one statement; a
 * chat's rows come back in that order too. `FOR UPDATE SKIP LOCKED` lets several relays claim at
 * once without waiting on each other or taking the same row.
 */
export async function claimDue(
  sql: Sql,
  source: Source,
  options: ClaimOptions,
): Promise<ClaimedMessage[]> {
  const rows = await sql.$queryRaw<ClaimRow[]>`
    UPDATE ${TABLES[source]} d
       SET next_attempt_at = timezone('UTC', now()) + make_interval(secs => ${options.claimMs / 1000}::float8),
           attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM ${TABLES[source]}
        WHERE status = 'PENDING' AND next_attempt_at <= timezone('UTC', now())
          AND NOT (chat_id = ANY(${chatIdParam(options.excludeChats ?? [])}::bigint[]))
        ORDER BY lane, next_attempt_at, id
        LIMIT ${options.limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING id, dedupe_key, chat_id, ${RETURNED[source]}, attempts, next_attempt_at::text AS claim, created_at, lane`;
  return rows
    .sort((a, b) => a.lane - b.lane || a.id - b.id)
    .map((r) => ({
      source,
      id: r.id,
      dedupeKey: r.dedupe_key,
      chatId: BigInt(r.chat_id),
      method: r.method,
      payload: r.payload,
      attempts: r.attempts,
      lane: r.lane,
      claim: r.claim,
      createdAt: r.created_at,
    }));
}

export interface ClaimRef {
  /** Default: `outbox`. */
  source?: Source;
  id: number;
  claim: string;
}

/** PENDING → SENT, once: only the holder of the current claim can do it. False: the claim was lost. */
export async function markOutboxSent(sql: Sql, ref: ClaimRef): Promise<boolean> {
  const count = await sql.$executeRaw`
    UPDATE ${TABLES[ref.source ?? "outbox"]} SET status = 'SENT', sent_at = timezone('UTC', now()), last_error = NULL
     WHERE id = ${ref.id} AND status = 'PENDING' AND next_attempt_at = ${ref.claim}::timestamp`;
  return count === 1;
}

export interface RescheduleOptions extends ClaimRef {
  delayMs: number;
  /** False when the try was not the message's failure (a 429, or pacing deferred it): undo the claim's count. */
  counts: boolean;
  error?: string;
}

/** Puts a claimed message back, due after `delayMs`. False: the claim was lost. */
export async function rescheduleOutbox(sql: Sql, options: RescheduleOptions): Promise<boolean> {
  // The claim is the row's next_attempt_at, kept to the millisecond: a delay as long as the claim's,
  // landing in the same millisecond, would write the claim's own value back and leave the claim
  // valid. One millisecond later then, so that a used claim never settles the message again.
  const count = await sql.$executeRaw`
    WITH due AS (
      SELECT (timezone('UTC', now()) + make_interval(secs => ${options.delayMs / 1000}::float8))::timestamp(3) AS at)
    UPDATE ${TABLES[options.source ?? "outbox"]}
       SET next_attempt_at = CASE WHEN due.at = next_attempt_at THEN due.at + interval '1 millisecond' ELSE due.at END,
           attempts = attempts - ${options.counts ? 0 : 1},
           last_error = COALESCE(${options.error ?? null}, last_error)
      FROM due
     WHERE id = ${options.id} AND status = 'PENDING' AND next_attempt_at = ${options.claim}::timestamp`;
  return count === 1;
}

export interface DeadOptions extends ClaimRef {
  error: string;
  /** Told to operators (each operator chat) in the same transaction; none: nobody to tell, or the message was an alert. */
  alerts: readonly OutboxMessageInput[];
}

/** PENDING → DEAD (the dead-letter state), with the operator alert committed alongside. */
export async function markOutboxDead(db: Database, options: DeadOptions): Promise<boolean> {
  return runTransaction(db, async (tx) => {
    const count = await tx.$executeRaw`
      UPDATE ${TABLES[options.source ?? "outbox"]} SET status = 'DEAD', last_error = ${options.error}
       WHERE id = ${options.id} AND status = 'PENDING' AND next_attempt_at = ${options.claim}::timestamp`;
    if (count === 1) await enqueueOutbox(tx, options.alerts);
    return count === 1;
  });
}
