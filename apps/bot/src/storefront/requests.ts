// Input parsed at the edge: a request's JSON or query is checked against a schema before any core
// call; a bad one gets 400 with its problems as data (field, rule, bound: core's own shape, so the
// page words an edge refusal and a core refusal alike) and changes nothing.
import type { FastifyReply } from "fastify";
import type { z } from "zod";
import { problemOf, type Problem } from "@orderbot/core";

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export function parse<T extends z.ZodType>(schema: T, input: unknown): Parsed<z.infer<T>> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.map(problemOf) };
}

export function badRequest(reply: FastifyReply, problems: readonly Problem[]) {
  return reply.code(400).send({ status: "invalid", problems });
}
