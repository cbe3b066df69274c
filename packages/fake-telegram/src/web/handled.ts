// A control route's outcome: the result, or 400 with the message of a FakeTelegramError (bad
// input, an unknown user); anything else is a bug of the fake and goes to Fastify's handler.
import type { FastifyReply } from "fastify";
import { FakeTelegramError } from "../errors.ts";

export async function handled(reply: FastifyReply, run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof FakeTelegramError)) throw error;
    return reply.code(400).send({ error: error.message, name: error.name });
  }
}
