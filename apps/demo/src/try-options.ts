// npm run try's options: where the fake Telegram's web client listens, and how to open it.
import { isIP } from "node:net";
import { parseArgs } from "node:util";

export interface TryOptions {
  port: number;
  /** The address to listen on: 127.0.0.1 (this machine only) unless --host says otherwise. */
  host: string;
}

export type ParsedTryOptions = { ok: true; options: TryOptions } | { ok: false; problem: string };

export function parseTryOptions(args: string[]): ParsedTryOptions {
  let values: { port: string; host: string };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: "string", default: "8081" },
        host: { type: "string", default: "127.0.0.1" },
      },
    }));
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535)
    return { ok: false, problem: `--port must be 0-65535, not ${values.port}` };
  if (values.host !== "localhost" && isIP(values.host) === 0)
    return {
      ok: false,
      problem: `--host must be an IP address (0.0.0.0: every one), not ${values.host}`,
    };
  return { ok: true, options: { port, host: values.host } };
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** What to open: the URL on this machine, and from elsewhere when the client listens beyond it. */
export function whereToOpen(options: TryOptions, localUrl: string): string[] {
  if (LOOPBACK.has(options.host)) return [`open ${localUrl}/ in a browser on this machine`];
  const shown =
    options.host === "0.0.0.0" || options.host === "::" ? "<this machine's address>" : options.host;
  return [
    `open http://${shown.includes(":") ? `[${shown}]` : shown}:${new URL(localUrl).port}/ in a browser`,
    "anyone who reaches that port can act as any user: keep it to a trusted network",
  ];
}
