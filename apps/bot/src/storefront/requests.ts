// Input parsed at the edge: a request's JSON or query is checked against a schema before any core
// call; a bad one gets 400 with one line per problem and changes nothing.
import type { FastifyReply } from "fastify";
import type { z } from "zod";

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export function parse<T extends z.ZodType>(schema: T, input: unknown): Parsed<z.infer<T>> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues.map(
      (issue) => `${issue.path.join(".") || "input"}: ${issue.message}`,
    ),
  };
}

export function badRequest(reply: FastifyReply, problems: string[]) {
  return reply.code(400).send({ status: "invalid", problems });
}
