// The commit convention's hook (scripts/git-hooks/commit-msg) and the `prepare` step that installs
// it (scripts/install-git-hooks), run as git and npm run them.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const HOOK = path.join(ROOT, "scripts/git-hooks/commit-msg");
const INSTALL = path.join(ROOT, "scripts/install-git-hooks");
const work = await mkdtemp(path.join(os.tmpdir(), "orderbot-commit-msg-"));
afterAll(() => rm(work, { recursive: true, force: true }));

let files = 0;
async function hook(message: string): Promise<{ code: number; err: string }> {
  const file = path.join(work, `message-${files++}`);
  await writeFile(file, message);
  try {
    await run(HOOK, [file]);
    return { code: 0, err: "" };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, err: e.stderr };
  }
}

async function git(cwd: string, ...args: string[]) {
  const { stdout } = await run(
    "git",
    ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args],
    { cwd },
  );
  return stdout.trim();
}

describe("the commit-msg hook", () => {
  it("takes a subject of 72 characters and refuses one of 73", async () => {
    expect(await hook(`${"a".repeat(72)}\n`)).toEqual({ code: 0, err: "" });
    const refused = await hook(`${"a".repeat(73)}\n`);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain("73 characters");
  });

  it("counts characters, not bytes", async () => {
    expect((await hook(`Price in ${"é".repeat(63)}\n`)).code).toBe(0);
    expect((await hook(`Price in ${"é".repeat(64)}\n`)).code).not.toBe(0);
  });

  it("wants a blank line between the subject and the body", async () => {
    expect((await hook("Expire reservations in batches\n\nWhy: fewer round trips.\n")).code).toBe(
      0,
    );
    const refused = await hook("Expire reservations in batches\nWhy: fewer round trips.\n");
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain("blank line");
  });

  it("leaves out what git strips: comments, leading blank lines, the scissors and below", async () => {
    const message = [
      "",
      "# Please enter the commit message for your changes.",
      "Expire reservations in batches",
      "",
      "Body.",
      "# ------------------------ >8 ------------------------",
      `diff --git a/${"x".repeat(100)}`,
    ].join("\n");
    expect((await hook(message)).code).toBe(0);
  });

  it("stops a real commit whose subject is too long, and lets a good one through", async () => {
    const repo = await mkdtemp(path.join(work, "repo-"));
    await git(repo, "init", "-q");
    await git(repo, "config", "core.hooksPath", path.join(ROOT, "scripts/git-hooks"));
    await expect(
      git(repo, "commit", "-q", "--allow-empty", "-m", "x".repeat(73)),
    ).rejects.toThrow();
    await git(repo, "commit", "-q", "--allow-empty", "-m", "Add a check", "-m", "Because.");
    expect(await git(repo, "log", "--format=%s")).toBe("Add a check");
  });
});

describe("npm install's prepare step", () => {
  it("installs the hooks first in the root package's prepare script", async () => {
    const manifest = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.prepare?.split(" && ")[0]).toBe("scripts/install-git-hooks");
  });

  /** A copy of the install script at `dir`/scripts, where it finds its project root. */
  async function installIn(dir: string, env: NodeJS.ProcessEnv = process.env) {
    await run("mkdir", ["-p", path.join(dir, "scripts")]);
    const copy = path.join(dir, "scripts/install-git-hooks");
    await writeFile(copy, await readFile(INSTALL), { mode: 0o755 });
    return run("/bin/sh", [copy], { env });
  }

  it("points core.hooksPath at scripts/git-hooks in a git work tree", async () => {
    const repo = await mkdtemp(path.join(work, "clone-"));
    await git(repo, "init", "-q");
    await installIn(repo);
    expect(await git(repo, "config", "--get", "core.hooksPath")).toBe("scripts/git-hooks");
  });

  it("does nothing, and succeeds, outside a work tree or without git", async () => {
    const plain = await mkdtemp(path.join(work, "tarball-"));
    await expect(installIn(plain)).resolves.toBeDefined();
    await expect(installIn(plain, { PATH: "/nonexistent" })).resolves.toBeDefined();
  });

  it("leaves a repository alone when the project is only a folder inside it", async () => {
    const outer = await mkdtemp(path.join(work, "outer-"));
    await git(outer, "init", "-q");
    await installIn(path.join(outer, "vendor/orderbot"));
    await expect(git(outer, "config", "--get", "core.hooksPath")).rejects.toThrow();
  });
});
