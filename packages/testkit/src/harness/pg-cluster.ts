import { execFile } from "node:child_process";
import { chownSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { makeOwnedTempDir, orphanedTempDirs } from "../services/owned-temp-dirs.ts";
import { processAlive } from "../services/process-alive.ts";
import { freePort } from "../services/redis.ts";

const run = promisify(execFile);
const DIR_PREFIX = "orderbot-pg-";

export interface PostgresCluster {
  port: number;
  /** The connection URL of a database on this cluster (default "postgres"). */
  url(database?: string): string;
  /** Starts (or starts again) the server on the same port and data directory. */
  start(): Promise<void>;
  /**
   * Stops the server. "immediate" is a crash as far as the data is concerned (every connection cut,
   * recovery from the WAL at the next start); "fast" is a clean shutdown that still cuts clients.
   */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Stops it and removes the data directory. */
  dispose(): Promise<void>;
}

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin/initdb")))
    : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions[0]) return path.join(root, versions[0], "bin");
  throw new Error(
    "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)",
  );
}

const isRoot = () => process.getuid?.() === 0;

/** initdb and postgres refuse to run as root: as root, run them as the `postgres` user. */
async function asPostgres(command: string, args: string[]): Promise<void> {
  const [file, argv] = isRoot()
    ? ["runuser", ["-u", "postgres", "--", command, ...args]]
    : [command, args];
  await run(file, argv, { timeout: 90_000 });
}

/** Clusters of runs that died without cleaning up: their owner's pid is in the directory name. */
async function removeStaleClusters(bin: string): Promise<void> {
  for (const dir of orphanedTempDirs(DIR_PREFIX)) {
    // the owner is gone: stop its server (if it still runs) and remove the directory
    if (existsSync(path.join(dir, "postmaster.pid")))
      await asPostgres(path.join(bin, "pg_ctl"), [
        "-D",
        dir,
        "-m",
        "immediate",
        "-w",
        "stop",
      ]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A PostgreSQL cluster of a run's own (initdb + pg_ctl on a free port in a temporary directory),
 * for what the shared cluster must never suffer: being stopped and restarted under load. Commits
 * survive a killed server (synchronous_commit on) but not a machine crash (fsync off); the time
 * zone is UTC so that `timestamp` columns read back as the instants they were written at.
 *
 * @example
 * const pg = await startPostgresCluster();
 * await pg.stop("immediate"); // the database is gone
 * await pg.start();           // and back, after crash recovery
 */
export async function startPostgresCluster(
  options: { maxConnections?: number } = {},
): Promise<PostgresCluster> {
  const bin = binDir();
  await removeStaleClusters(bin);
  const port = await freePort();
  const dir = makeOwnedTempDir(DIR_PREFIX);
  if (isRoot()) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await asPostgres(path.join(bin, "initdb"), [
    "-D",
    dir,
    "-A",
    "trust",
    "-U",
    "postgres",
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
  ]);
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    `-c max_connections=${options.maxConnections ?? 200}`,
    // A commit must survive the server being killed (the chaos runs do that); surviving the
    // machine's crash is not needed, so fsync stays off. synchronous_commit=off would lose the
    // last commits on a kill, which no application could defend against.
    "-c fsync=off",
    "-c synchronous_commit=on",
    "-c full_page_writes=off",
    "-c timezone=UTC",
  ].join(" ");

  const cluster: PostgresCluster = {
    port,
    url: (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      if (running()) return;
      await asPostgres(path.join(bin, "pg_ctl"), [
        "-D",
        dir,
        "-l",
        path.join(dir, "server.log"),
        "-w",
        "-t",
        "60",
        "-o",
        settings,
        "start",
      ]);
    },
    async stop(mode = "fast") {
      if (!running()) return;
      await asPostgres(path.join(bin, "pg_ctl"), ["-D", dir, "-m", mode, "-w", "-t", "60", "stop"]);
    },
    async dispose() {
      await cluster.stop("immediate").catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };

  function running(): boolean {
    const pidFile = path.join(dir, "postmaster.pid");
    if (!existsSync(pidFile)) return false;
    return processAlive(Number(readFileSync(pidFile, "utf8").split("\n")[0]));
  }

  await cluster.start();
  return cluster;
}
