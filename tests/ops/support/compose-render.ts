// `docker-compose config` of a copy of docker/ with env files of the test's choosing: the apps'
// env file (docker/app.env) is git-ignored and may hold real secrets, so a test never reads or
// writes the real one. Each render costs about a second: render once, check many things.
import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { DOCKER_DIR, run, tool } from "./tools.ts";

export interface RenderedService {
  image?: string;
  environment?: Record<string, string | number | null>;
  deploy?: {
    replicas?: number;
    resources?: { limits?: { cpus?: string | number; memory?: string } };
  };
  healthcheck?: { test?: string | string[]; disable?: boolean };
  restart?: string;
  pids_limit?: number;
  logging?: { driver?: string; options?: Record<string, string> };
  cap_drop?: string[];
  security_opt?: string[];
  [key: string]: unknown;
}

export interface Rendered {
  code: number;
  stderr: string;
  /** The configuration as compose prints it. */
  text: string;
  services: Record<string, RenderedService>;
}

/**
 * A copy of docker/ under `root` (with `root` as the build context, as the repository is), holding
 * `appEnv` as its app.env. Returns the copy's docker directory.
 */
export async function stageDockerDir(root: string, appEnv: string): Promise<string> {
  const dir = path.join(root, "docker");
  await cp(DOCKER_DIR, dir, { recursive: true, filter: (src) => !/\/\.?(app\.)?env$/.test(src) });
  await writeFile(path.join(dir, "app.env"), appEnv);
  return dir;
}

/**
 * `docker-compose config` of `file` in `dockerDir`, with only `variables` for interpolation:
 * neither the caller's environment nor a docker/.env leaks in.
 */
export async function renderCompose(
  dockerDir: string,
  file: string,
  variables: Record<string, string>,
  args: string[] = ["config"],
): Promise<Rendered> {
  const empty = path.join(dockerDir, "..", "empty.env");
  await writeFile(empty, "");
  const env = { PATH: process.env.PATH, HOME: path.dirname(dockerDir), ...variables };
  const result = await run(tool("docker-compose"), ["--env-file", empty, "-f", file, ...args], {
    cwd: dockerDir,
    env,
  });
  const parsed =
    result.code === 0 && args[0] === "config" && args.length === 1
      ? (parse(result.stdout) as { services?: Record<string, RenderedService> })
      : {};
  return {
    code: result.code,
    stderr: result.stderr,
    text: result.stdout,
    services: parsed.services ?? {},
  };
}
