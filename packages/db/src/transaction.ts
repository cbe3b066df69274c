import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "./client.ts";
import { Prisma } from "./generated/client.ts";

export type Tx = Prisma.TransactionClient;
export type IsolationLevel = Prisma.TransactionIsolationLevel;

export interface TransactionOptions {
  /** The whole transaction must finish within this (ms); a short transaction is the point. */
  timeoutMs?: number;
  /** How long to wait for a pool connection before giving up (ms). */
  maxWaitMs?: number;
  isolationLevel?: IsolationLevel;
  /** Attempts after the first when PostgreSQL reports a serialization failure or deadlock. */
  retries?: number;
  /** Aborting it rolls the transaction back at its next statement (a lock's lease signal, say). */
  signal?: AbortSignal;
}

/** SQLSTATEs that mean "run the transaction again": serialization failure and deadlock. */
const RETRYABLE_SQLSTATES = new Set(["40001", "40P01"]);

/**
 * The SQLSTATE behind an error of the pg driver adapter, when there is one: wrapped by Prisma
 * around a statement, or bare (a `DriverAdapterError`) when the transaction's COMMIT failed, as
 * a deferred constraint trigger makes it do.
 */
export function sqlStateOf(error: unknown): string | undefined {
  if (error instanceof Error && error.name === "DriverAdapterError")
    return (error.cause as { originalCode?: string } | undefined)?.originalCode;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  const meta = error.meta as
    { code?: string; driverAdapterError?: { cause?: { originalCode?: string } } } | undefined;
  return meta?.driverAdapterError?.cause?.originalCode ?? meta?.code;
}

/**
 * Serialization failures and deadlocks. Judged by SQLSTATE, not by Prisma's code alone: with the
 * pg adapter, P2034 means a write conflict, but other codes (P2039) wrap any driver error, a
 * CHECK violation included, which must never be retried.
 */
export function isRetryableTransactionError(error: unknown): boolean {
  const sqlState = sqlStateOf(error);
  if (sqlState !== undefined) return RETRYABLE_SQLSTATES.has(sqlState);
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2034";
}

/** True when the error is a unique-constraint violation (P2002), optionally on a given field. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** Thrown inside a transaction when its signal aborted; the transaction has been rolled back. */
export class TransactionAbortedError extends Error {
  override name = "TransactionAbortedError";
  constructor(cause: unknown) {
    super("transaction aborted by its signal", { cause });
  }
}

/**
 * Runs `fn` in a short interactive transaction: bounded in time, retried with jittered backoff
 * on serialization failures and deadlocks, and rolled back when `signal` aborts (checked before
 * the transaction starts and after `fn` returns, before the commit).
 *
 * @example
 * const order = await runTransaction(db, async (tx) => {
 *   const { count } = await tx.product.updateMany({ where: { id, stock: { gte: qty } }, data: { stock: { decrement: qty } } });
 *   if (count === 0) return null;
 *   return tx.order.create({ data });
 * }, { timeoutMs: 3000, signal: lease.signal });
 */
export async function runTransaction<T>(
  db: Database,
  fn: (tx: Tx) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const retries = options.retries ?? 3;
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw new TransactionAbortedError(options.signal.reason);
    try {
      return await db.$transaction(
        async (tx) => {
          const result = await fn(tx);
          // The last moment to back out: a lease lost while fn ran must not commit.
          if (options.signal?.aborted) throw new TransactionAbortedError(options.signal.reason);
          return result;
        },
        {
          timeout: options.timeoutMs ?? 5000,
          maxWait: options.maxWaitMs ?? 2000,
          ...(options.isolationLevel ? { isolationLevel: options.isolationLevel } : {}),
        },
      );
    } catch (error) {
      if (attempt >= retries || !isRetryableTransactionError(error)) throw error;
      await sleep(Math.random() * 20 * 2 ** attempt);
    }
  }
}
