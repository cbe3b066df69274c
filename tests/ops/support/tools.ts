// Runs the command-line tools the operations tests check the files with. scripts/ensure-tools
// installs them (npm test calls it); a missing tool fails the test with that advice.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "@orderbot/testkit";

const execFileAsync = promisify(execFile);

export const DOCKER_DIR = path.join(PROJECT_ROOT, "docker");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The tool on PATH, or the copy scripts/ensure-tools unpacked into .data/tools/bin. */
export function tool(name: "promtool" | "amtool" | "docker-compose" | "caddy"): string {
  const local = path.join(
    process.env.ORDERBOT_DATA_DIR ?? path.join(PROJECT_ROOT, ".data"),
    "tools/bin",
    name,
  );
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  if (existsSync(local)) return local;
  throw new Error(
    `${name} is not installed: run scripts/ensure-tools as root (npm test does), or see its header for the apt package`,
  );
}

export async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, {
      cwd: options.cwd ?? DOCKER_DIR,
      env: options.env ?? process.env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === "number" ? e.code : 1,
      stdout: e.stdout ?? "",
      stderr: e.stderr ?? String(error),
    };
  }
}
