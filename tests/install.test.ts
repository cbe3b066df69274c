// `npm install` alone readies every README command: its `prepare` step generates the Prisma client
// (scripts/prisma-generate, offline), which the bot, the worker and the demo import.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const work = await mkdtemp(path.join(os.tmpdir(), "orderbot-install-"));
afterAll(() => rm(work, { recursive: true, force: true }));

/** The files the install step reads, without the generated client, beside the installed modules. */
async function checkout(): Promise<string> {
  const dir = path.join(work, "checkout");
  await mkdir(path.join(dir, "scripts"), { recursive: true });
  for (const file of ["package.json", "prisma.config.ts", "prisma/schema.prisma"])
    await cp(path.join(ROOT, file), path.join(dir, file));
  for (const script of ["install-git-hooks", "prisma-generate"])
    await cp(path.join(ROOT, "scripts", script), path.join(dir, "scripts", script));
  await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

describe("npm install", () => {
  it("generates the Prisma client the bot imports, in its prepare step", async () => {
    const dir = await checkout();
    const client = path.join(dir, "packages/db/src/generated/client.ts");
    await expect(stat(client)).rejects.toThrow();
    await run("npm", ["run", "prepare", "--silent"], { cwd: dir, timeout: 120_000 });
    expect((await stat(client)).isFile()).toBe(true);
    expect(await readFile(path.join(ROOT, "packages/db/src/client.ts"), "utf8")).toContain(
      "./generated/client.ts",
    );
  }, 180_000);
});
