// A webhook endpoint for delivery tests: records every request and answers as the test says.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TgUpdate } from "../../src/index.ts";

export interface Received {
  update: TgUpdate;
  headers: IncomingHttpHeaders;
  at: number;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

export type Policy = (received: Received, index: number) => Answer | Promise<Answer>;

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests being answered right now. */
  open: Received[];
  /** The most requests open at once. */
  maxOpen: number;
  /** The most requests about one chat open at once. */
  maxOpenPerChat: number;
  policy: Policy;
  close(): Promise<void>;
}

export async function startReceiver(policy: Policy = () => ({ status: 200 })): Promise<Receiver> {
  const receiver = {
    received: [],
    open: [],
    maxOpen: 0,
    maxOpenPerChat: 0,
    policy,
  } as unknown as Receiver;
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const received: Received = {
        update: JSON.parse(body) as TgUpdate,
        headers: request.headers,
        at: Date.now(),
      };
      receiver.received.push(received);
      receiver.open.push(received);
      receiver.maxOpen = Math.max(receiver.maxOpen, receiver.open.length);
      const sameChat = receiver.open.filter((r) => chatOf(r.update) === chatOf(received.update));
      receiver.maxOpenPerChat = Math.max(receiver.maxOpenPerChat, sameChat.length);
      void Promise.resolve(receiver.policy(received, receiver.received.length - 1)).then(
        (answer) => {
          receiver.open.splice(receiver.open.indexOf(received), 1);
          if (response.destroyed) return;
          response.writeHead(answer.status ?? 200, {
            "content-type": "application/json",
            ...answer.headers,
          });
          response.end(answer.body ?? "");
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A promise with its resolve function, to hold a webhook response until the test releases it. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Polls until `check` is true (for conditions on another process's side). */
export async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function chatOf(update: TgUpdate): number | undefined {
  return (
    update.message?.chat.id ??
    update.callback_query?.message?.chat.id ??
    update.pre_checkout_query?.from.id
  );
}
