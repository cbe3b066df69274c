import { Prisma, isUniqueViolation, sqlStateOf } from "@orderbot/db";

/**
 * The unique index a write violated, or undefined when the error is not a unique violation.
 * Works for Prisma's own writes (P2002) and for raw SQL (P2010 carrying SQLSTATE 23505).
 */
export function violatedUniqueIndex(error: unknown): string | undefined {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  if (!isUniqueViolation(error) && sqlStateOf(error) !== "23505") return undefined;
  const meta = error.meta as
    | {
        target?: unknown;
        driverAdapterError?: {
          cause?: { constraint?: { index?: string }; originalMessage?: string };
        };
      }
    | undefined;
  const cause = meta?.driverAdapterError?.cause;
  if (cause?.constraint?.index) return cause.constraint.index;
  const quoted = /unique constraint "([^"]+)"/.exec(cause?.originalMessage ?? error.message);
  return quoted?.[1] ?? "unknown";
}

/** The unique indexes whose violation means "already done", named once. */
export const UNIQUE = {
  orderIdempotencyKey: "orders_idempotency_key_key",
  orderPublicId: "orders_public_id_key",
  paymentChargeId: "payments_telegram_charge_id_key",
  oneCapturedPayment: "payments_one_captured_per_order",
} as const;

/**
 * Thrown inside a transaction to roll it back and hand a result to the caller: "out of stock"
 * must leave nothing changed, so the rows already written in the transaction have to go.
 */
export class Rollback<T> extends Error {
  override name = "Rollback";
  constructor(readonly result: T) {
    super("transaction rolled back with a result");
  }
}

/**
 * The database is saturated and nothing was written: no pool connection within the transaction's
 * maxWait, or the transaction ran past its timeout and was rolled back (a queue of transactions
 * waiting on one hot row, on a starved machine). placeOrder sheds this load as "busy"; paths that
 * must not drop work let it throw.
 */
export function isDatabaseOverloaded(error: unknown): boolean {
  return (
    error instanceof Prisma.PrismaClientKnownRequestError &&
    error.code === "P2028" &&
    /unable to start a transaction|expired transaction/i.test(error.message)
  );
}
