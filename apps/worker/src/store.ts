// The worker's database operations (outbox claims and settlements, refunds, admin lists, reports).
// They live in core (packages/core/src/worker), beside the order services; jobs import them from
// here only, never Prisma itself.
export * from "../../../packages/core/src/worker/index.ts";
