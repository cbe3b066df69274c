import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";

const current = new AsyncLocalStorage<string>();

/** A new id for one tick of a job (`job:<name>:<8 hex>`): its lock and its runs' log lines carry it. */
export function newRunId(jobName: string): string {
  return `job:${jobName}:${randomBytes(4).toString("hex")}`;
}

/** Runs `fn` as part of the job run `runId`: core's services read it for their locks. */
export function inJobRun<T>(runId: string, fn: () => Promise<T>): Promise<T> {
  return current.run(runId, fn);
}

/** The job run being served, for `createShop({ requestId })`; undefined outside one. */
export function currentJobRun(): string | undefined {
  return current.getStore();
}
