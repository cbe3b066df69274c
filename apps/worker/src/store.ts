// The worker's database operations (outbox claims and settlements, refunds, admin lists, reports).
// They live in core (@orderbot/core/worker), beside the order services; jobs import them from
// here only, never Prisma itself.
export * from "@orderbot/core/worker";
