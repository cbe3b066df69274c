import { z } from "zod";
import { issueParams, problemOf, type Problem } from "./problems.ts";

/** Telegram user and chat ids exceed 32 bits: accepted as bigint, safe integer or digit string. */
export const telegramId = z
  .union([
    z.bigint(),
    z.number().int().refine(Number.isSafeInteger, issueParams("integer")),
    z.string().regex(/^-?\d{1,20}$/, "telegram-id"),
  ])
  .transform((value) => BigInt(value));

export const skuSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, "sku");

export const currencySchema = z.string().regex(/^[A-Z]{3}$/, "currency");

/** Each issue as a problem: which field, which rule, which bound. */
export function problemsOf(error: z.ZodError): Problem[] {
  return error.issues.map(problemOf);
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Parsed<z.output<S>> {
  // The input is reported so that a missing field reads "required", not "wrong type".
  const result = schema.safeParse(input, { reportInput: true });
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problems: problemsOf(result.error) };
}
