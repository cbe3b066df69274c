import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { PROJECT_ROOT } from "../services/env.ts";
import { appBundle } from "./app-bundle.ts";

export interface AppProcess {
  name: string;
  readonly pid: number;
  /** Every line the process wrote (stdout and stderr), for scanning after a run. */
  readonly output: string[];
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then waits for a graceful exit (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<number | string>;
  /** SIGKILL: a crash. */
  kill(): Promise<number | string>;
  /** SIGSTOP / SIGCONT: a process that hangs (GC pause, swapped out) and comes back. */
  pause(): void;
  resume(): void;
  /** Polls `url` until it answers 2xx. */
  waitReady(url: string, timeoutMs?: number): Promise<void>;
}

export interface SpawnAppOptions {
  name: string;
  /** Entry file relative to the project root, e.g. "apps/bot/src/main.ts". */
  entry: string;
  /** The source tree to run (another release's, `checkoutRelease`); default this checkout. */
  root?: string;
  env: Record<string, string | undefined>;
  /** Also append the output to this file. */
  logFile?: string;
  args?: string[];
}

/**
 * Starts one of the project's apps as a real process, from its bundle (`app-bundle.ts`): one
 * process (no wrapper), so that kill -9 and SIGSTOP hit the app itself, as they would in production.
 */
export async function spawnApp(options: SpawnAppOptions): Promise<AppProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [await appBundle(options.entry, options.root), ...(options.args ?? [])],
    {
      cwd: options.root ?? PROJECT_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  const file: WriteStream | undefined = options.logFile
    ? createWriteStream(options.logFile, { flags: "a" })
    : undefined;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    output.push(...text.split("\n").filter(Boolean));
    file?.write(text);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => {
      file?.end();
      resolve(code ?? signal ?? "unknown");
    });
  });

  return {
    name: options.name,
    pid: child.pid ?? -1,
    output,
    exited,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGCONT");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      timer.unref();
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      return exited;
    },
    pause() {
      child.kill("SIGSTOP");
    },
    resume() {
      child.kill("SIGCONT");
    },
    async waitReady(url, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let exitedEarly = false;
      void exited.then(() => (exitedEarly = true));
      while (Date.now() < deadline) {
        if (exitedEarly)
          throw new Error(
            `${options.name} exited before it was ready:\n${output.slice(-20).join("\n")}`,
          );
        try {
          const response = await fetch(url);
          if (response.ok) return;
        } catch {
          // not listening yet
        }
        await sleep(100);
      }
      throw new Error(
        `${options.name} not ready at ${url} after ${timeoutMs} ms:\n${output.slice(-20).join("\n")}`,
      );
    },
  };
}
