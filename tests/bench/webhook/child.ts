// The webhook bench's processes: the fake Bot API and each bot under test run in a child process of
// their own (so that the CPU a bot uses is its own, not the load generator's), and answer the
// bench's requests over the IPC channel: { id, type, payload } in, { id, result | error } out.
import { fork, type ChildProcess } from "node:child_process";

type Handler = (payload: unknown) => unknown;

interface Request {
  id: number;
  type: string;
  payload?: unknown;
}

/** In the child: serve these requests until the parent says "close" (after running `close`). */
export function serveParent(handlers: Record<string, Handler>, close: () => Promise<void>): void {
  const send = (message: unknown) => process.send!(message);
  process.on("message", (message: Request) => {
    const { id, type, payload } = message;
    if (type === "close") {
      close().then(
        () => process.send!({ id, result: null }, () => process.exit(0)),
        (error: unknown) => send({ id, error: String(error) }),
      );
      return;
    }
    const handler = handlers[type];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`no handler for ${type}`);
        return handler(payload);
      })
      .then(
        (result) => send({ id, result: result ?? null }),
        (error: unknown) =>
          send({
            id,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          }),
      );
  });
}

/** The CPU this process has used, in milliseconds (user + system). */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export interface Child {
  request<T>(type: string, payload?: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * Forks `file` (run through tsx) with these environment variables, and waits for its "ready"
 * message, whose value it returns beside the handle.
 */
export async function startChild<Ready>(
  file: string,
  env: Record<string, string>,
): Promise<{ child: Child; ready: Ready }> {
  const proc: ChildProcess = fork(file, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const ready = await new Promise<Ready>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`${file} exited (${code}) before ready`));
    proc.once("exit", onExit);
    proc.on(
      "message",
      (message: { ready?: Ready; id?: number; result?: unknown; error?: string }) => {
        if (message.ready !== undefined) {
          proc.off("exit", onExit);
          resolve(message.ready);
          return;
        }
        const pending = waiting.get(message.id!);
        if (!pending) return;
        waiting.delete(message.id!);
        if (message.error !== undefined) pending.reject(new Error(message.error));
        else pending.resolve(message.result);
      },
    );
  });
  proc.on("exit", (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`${file} exited (${code})`));
    waiting.clear();
  });
  const request = <T>(type: string, payload?: unknown) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      proc.send({ id, type, payload });
    });
  return {
    ready,
    child: {
      request,
      async close() {
        if (proc.exitCode !== null) return;
        const exited = new Promise((resolve) => proc.once("exit", resolve));
        await request("close").catch(() => undefined);
        const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      },
    },
  };
}
