// A TCP relay between a replica and its master, so a test can cut replication (a partition, or
// replication lagging behind) without touching either server or the host's network.
import net from "node:net";
import { freePort } from "@orderbot/testkit";

export interface ReplicationProxy {
  /** The replica replicates from 127.0.0.1:port. */
  port: number;
  /** Drops the link and refuses new ones: nothing written to the master reaches the replica. */
  partition(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startReplicationProxy(targetPort: number): Promise<ReplicationProxy> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let partitioned = false;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (partitioned) return void client.destroy();
    const upstream = net.connect(targetPort, "127.0.0.1");
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port,
    partition() {
      partitioned = true;
      for (const socket of sockets) socket.destroy();
    },
    heal() {
      partitioned = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
