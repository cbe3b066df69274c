import { z } from "zod";

/** Telegram user and chat ids exceed 32 bits: accepted as bigint, safe integer or digit string. */
export const telegramId = z
  .union([
    z.bigint(),
    z.number().int().refine(Number.isSafeInteger, "must be a safe integer"),
    z.string().regex(/^-?\d{1,20}$/),
  ])
  .transform((value) => BigInt(value));

export const skuSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, "letters, digits, '.', '_' and '-' only");

export const currencySchema = z.string().regex(/^[A-Z]{3}$/, "a 3-letter currency code");

/** One line per problem, "path: message", for the caller to log or show an operator. */
export function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) =>
    issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message,
  );
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(input);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problems: problemsOf(result.error) };
}
