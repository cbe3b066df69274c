// The previous release's sources, checked out from git for a test that runs them beside this
// checkout (tests/upgrade): `git archive` of the commit named in scripts/previous-release, with
// this checkout's installed packages linked in (the two releases share their dependencies) and
// its own Prisma client generated from its own schema. Its apps then run from bundles like this
// one's (`spawnApp({ root })`).
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../services/env.ts";
import { makeOwnedTempDir, orphanedTempDirs } from "../services/owned-temp-dirs.ts";

export interface ReleaseCheckout {
  /** The commit checked out. */
  commit: string;
  /** Its source tree: pass it to `spawnApp` as `root`. */
  root: string;
  dispose(): void;
}

const DIR_PREFIX = "orderbot-release-";

/** The commit named in scripts/previous-release (its one line that is not a comment). */
export function previousReleaseCommit(): string {
  const file = path.join(PROJECT_ROOT, "scripts/previous-release");
  const commit = readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "" && !line.startsWith("#"));
  if (!commit || !/^[0-9a-f]{40}$/.test(commit))
    throw new Error(`${file} names no commit (40 hex digits)`);
  return commit;
}

/** Checks out `commit` into a temporary folder, ready to bundle and run. */
export function checkoutRelease(commit: string): ReleaseCheckout {
  for (const stale of orphanedTempDirs(DIR_PREFIX)) rmSync(stale, { recursive: true, force: true });
  const root = makeOwnedTempDir(DIR_PREFIX);
  const dispose = () => rmSync(root, { recursive: true, force: true });
  try {
    extract(commit, root);
    linkPackages(root);
    generatePrismaClient(root);
  } catch (error) {
    dispose();
    throw error;
  }
  return { commit, root, dispose };
}

function extract(commit: string, root: string): void {
  try {
    execFileSync("git", ["-C", PROJECT_ROOT, "cat-file", "-e", `${commit}^{commit}`]);
  } catch {
    throw new Error(
      `commit ${commit} (scripts/previous-release) is not in this clone: a shallow clone needs ` +
        "`git fetch --unshallow`",
    );
  }
  execFileSync("bash", [
    "-o",
    "pipefail",
    "-c",
    'git -C "$1" archive --format=tar "$2" | tar -x -C "$3"',
    "extract",
    PROJECT_ROOT,
    commit,
    root,
  ]);
}

/**
 * node_modules as npm would have installed it there: every package links to this checkout's, but
 * the workspaces (`@orderbot/*`) are the release's own, as are the workspaces' own node_modules.
 */
function linkPackages(root: string): void {
  const modules = path.join(PROJECT_ROOT, "node_modules");
  mkdirSync(path.join(root, "node_modules/@orderbot"), { recursive: true });
  for (const name of readdirSync(modules)) {
    if (name === "@orderbot" || name.startsWith(".")) continue;
    symlinkSync(path.join(modules, name), path.join(root, "node_modules", name));
  }
  for (const name of readdirSync(path.join(modules, "@orderbot"))) {
    const target = readlinkSync(path.join(modules, "@orderbot", name)); // ../../packages/<name>
    symlinkSync(target, path.join(root, "node_modules/@orderbot", name));
  }
  for (const group of ["apps", "packages"])
    for (const workspace of readdirSync(path.join(PROJECT_ROOT, group))) {
      const own = path.join(PROJECT_ROOT, group, workspace, "node_modules");
      const there = path.join(root, group, workspace);
      if (existsSync(own) && existsSync(there)) symlinkSync(own, path.join(there, "node_modules"));
    }
}

/** The release's Prisma client, from its schema, offline (as scripts/prisma-generate does). */
function generatePrismaClient(root: string): void {
  const schema = path.join(root, "prisma/schema.prisma");
  execFileSync(
    process.execPath,
    [path.join(PROJECT_ROOT, "node_modules/prisma/build/index.js"), "generate", "--schema", schema],
    {
      cwd: root,
      env: {
        ...process.env,
        PRISMA_SCHEMA_ENGINE_BINARY: schema,
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
        CHECKPOINT_DISABLE: "1",
      },
      stdio: "pipe",
    },
  );
}
