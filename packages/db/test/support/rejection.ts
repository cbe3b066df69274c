import { expect } from "vitest";
import { Prisma } from "@orderbot/db";

/** The Postgres error behind a rejected write: a constraint name or a Prisma code. */
export async function rejection(write: Promise<unknown>): Promise<string> {
  const error = await write.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the database accepted a write it must refuse").not.toBeNull();
  if (error instanceof Prisma.PrismaClientKnownRequestError)
    return `${error.code} ${JSON.stringify(error.meta)} ${error.message}`;
  return String(error);
}
