// freePort: a port another process binds later, so it must not be one the kernel could hand to any
// connection meanwhile (the ephemeral range), nor one this process handed out already.
import net from "node:net";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { freePort } from "../../src/index.ts";

const listen = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });

it("hands out distinct ports below the kernel's ephemeral range, each one bindable", async () => {
  const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
    .trim()
    .split(/\s+/)
    .map(Number);
  const ports = await Promise.all(Array.from({ length: 200 }, () => freePort()));
  expect(new Set(ports).size).toBe(ports.length);
  expect(ports.every((port) => port > 1024 && port < low!)).toBe(true);
  const servers = await Promise.all(ports.slice(0, 20).map(listen)); // all of them at once
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});
