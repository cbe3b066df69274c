// Shared by every benchmark: the rewrite of one section of docs/benchmarks.md between
// `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->`, stamped with the machine, the versions
// and the date. Other sections of the file are left as they are.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../services/env.ts";

export const BENCHMARKS_MD = path.join(PROJECT_ROOT, "docs/benchmarks.md");

/** The version of an installed npm package as seen from `from` (a directory), or "?". */
export function packageVersion(name: string, from = PROJECT_ROOT): string {
  try {
    const require = createRequire(path.join(from, "noop.js"));
    const entry = require.resolve(`${name}/package.json`);
    return (JSON.parse(readFileSync(entry, "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

export function redisServerVersion(): string {
  try {
    return (
      /v=(\S+)/.exec(execFileSync("redis-server", ["--version"], { encoding: "utf8" }))?.[1] ?? "?"
    );
  } catch {
    return "?";
  }
}

/** One line naming the machine, Node, Redis and the given packages, plus the date. */
export function environmentLine(packages: Record<string, string>): string {
  const cpus = os.cpus();
  const pkgs = Object.entries(packages)
    .map(([name, version]) => `${name} ${version}`)
    .join(", ");
  return [
    `Machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    `Node ${process.version}, redis-server ${redisServerVersion()}; ${pkgs}`,
    // Other work on the machine moves every figure: say how busy it was.
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average ${os.loadavg()[0]!.toFixed(1)} at the end`,
  ].join("  \n");
}

/**
 * Replaces the section NAME of docs/benchmarks.md (creating the file or appending the section if
 * missing) with `body`.
 */
export function writeSection(name: string, body: string, file = BENCHMARKS_MD): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const current = existsSync(file)
    ? readFileSync(file, "utf8")
    : "# Benchmarks\n\nWritten by the benchmark scripts (`npm run bench -- NAME`); each rewrites only its own section.\n";
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from !== -1 && to > from
      ? current.slice(0, from) + block + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}

/**
 * An installed package's version, read from its package.json in node_modules: the root's first,
 * then each workspace's (npm nests a package there when workspaces need different versions), for
 * packages whose exports hide it from packageVersion.
 */
export function installedVersion(name: string): string {
  const workspaces = ["apps", "packages"].flatMap((dir) =>
    readdirSync(path.join(PROJECT_ROOT, dir)).map((entry) => path.join(PROJECT_ROOT, dir, entry)),
  );
  for (const root of [PROJECT_ROOT, ...workspaces]) {
    const file = path.join(root, "node_modules", name, "package.json");
    if (existsSync(file))
      return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  }
  return packageVersion(name);
}
