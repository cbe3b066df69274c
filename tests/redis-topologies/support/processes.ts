// redis-server processes a test starts itself (sentinels here; data nodes come from the test kit's
// startRedisServer), on loopback ports, with their files in a temporary directory.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface ServerProcess {
  port: number;
  stop(): Promise<void>;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** `redis-server <args...>`, resolved once its port answers. */
export async function spawnRedisServer(port: number, args: string[]): Promise<ServerProcess> {
  const child: ChildProcess = spawn("redis-server", args, { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let i = 0; !(await answers(port)); i++) {
    if (child.exitCode !== null || i > 200) {
      child.kill("SIGKILL");
      throw new Error(`redis-server ${args.join(" ")} did not start on port ${port}`);
    }
    await sleep(25);
  }
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
