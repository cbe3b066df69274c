import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startRoundRobinProxy } from "@orderbot/testkit";

const servers: http.Server[] = [];
async function backend(name: string): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () =>
      res.writeHead(200, { "x-backend": name }).end(`${name}:${req.method}:${req.url}:${body}`),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

describe("startRoundRobinProxy", () => {
  it("sends requests to each target in turn, with method, path and body, and 502 for a dead one", async () => {
    const dead = "http://127.0.0.1:1";
    const proxy = await startRoundRobinProxy([await backend("a"), await backend("b"), dead]);
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${proxy.url}/telegram/webhook`, {
        method: "POST",
        body: `u${i}`,
      });
      answers.push(
        `${response.status} ${response.status === 200 ? await response.text() : ""}`.trim(),
      );
    }
    expect(answers).toEqual([
      "200 a:POST:/telegram/webhook:u0",
      "200 b:POST:/telegram/webhook:u1",
      "502",
      "200 a:POST:/telegram/webhook:u3",
      "200 b:POST:/telegram/webhook:u4",
      "502",
    ]);
    expect(proxy.stats).toEqual({ forwarded: [2, 2, 2], unreachable: [0, 0, 2] });
    await proxy.close();
  });
});
