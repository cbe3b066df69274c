import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** Requests forwarded per target, and how many failed to reach it (answered 502). */
  readonly stats: { forwarded: number[]; unreachable: number[] };
  close(): Promise<void>;
}

/**
 * The reverse proxy in front of several bot replicas: each request goes to the next target in
 * turn. A target that does not answer (killed, paused past the timeout) yields a 502, as nginx
 * would, and Telegram then re-delivers the update, most likely to another replica.
 */
export async function startRoundRobinProxy(
  targets: string[],
  options: {
    timeoutMs?: number;
    /** Sees each request's body and the target it goes to, before it is forwarded (chaos runs pick a victim this way). */
    onForward?: (target: number, body: Buffer) => void;
  } = {},
): Promise<RoundRobinProxy> {
  const stats = { forwarded: targets.map(() => 0), unreachable: targets.map(() => 0) };
  let next = 0;
  const server = http.createServer((req, res) => {
    const index = next++ % targets.length;
    const target = new URL(req.url ?? "/", targets[index]);
    stats.forwarded[index]!++;
    const upstream = http.request(
      target,
      { method: req.method, headers: req.headers, timeout: options.timeoutMs ?? 30_000 },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    const fail = () => {
      stats.unreachable[index]!++;
      if (!res.headersSent) res.writeHead(502).end("bad gateway");
      else res.destroy();
    };
    upstream.on("timeout", () => upstream.destroy(new Error("upstream timeout")));
    upstream.on("error", fail);
    if (!options.onForward) {
      req.pipe(upstream);
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      options.onForward?.(index, body);
      upstream.end(body);
    });
  });
  // Idle client connections stay open longer than any client keeps them (nginx: 75 s). With
  // Node's default of 5 s, a client may reuse a connection just as the proxy closes it, and its
  // request fails with "other side closed" (a fuzz run in CI saw it).
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
