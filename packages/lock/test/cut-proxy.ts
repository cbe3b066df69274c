// A TCP proxy in front of a test Redis that can lose a reply: the command reaches Redis and runs,
// and the connection is cut before its answer gets back, as a network fault would. It can also
// refuse every connection until told to accept again.
import net from "node:net";

export interface CutProxy {
  url: string;
  /** Drops the next reply from Redis and closes that client's connection. */
  cutNextReply(): void;
  /** Closes every connection and refuses new ones until accept(). */
  refuse(): void;
  accept(): void;
  close(): Promise<void>;
}

export async function cutProxy(targetPort: number): Promise<CutProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let cutNext = false;
  let refusing = false;
  const end = (pair: [net.Socket, net.Socket]) => {
    pair.forEach((socket) => socket.destroy());
    pairs.delete(pair);
  };
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = net.connect(targetPort, "127.0.0.1");
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => {
      if (!cutNext) return void client.write(chunk);
      cutNext = false;
      end(pair);
    });
    for (const socket of pair) {
      socket.on("error", () => end(pair));
      socket.on("close", () => end(pair));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    cutNextReply: () => void (cutNext = true),
    refuse() {
      refusing = true;
      [...pairs].forEach(end);
    },
    accept: () => void (refusing = false),
    close: () => {
      [...pairs].forEach(end);
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
