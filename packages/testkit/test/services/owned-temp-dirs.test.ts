// A folder is orphaned once the process named in it is gone, never while it still runs.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { makeOwnedTempDir, orphanedTempDirs } from "../../src/services/owned-temp-dirs.ts";

const PREFIX = `orderbot-owned-test-${process.pid}x`;
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

it("lists the folders whose owner process has exited, and not this process's own", () => {
  const own = makeOwnedTempDir(PREFIX);
  const gone = spawnSync("true").pid!; // exited by the time spawnSync returns
  const orphan = path.join(tmpdir(), `${PREFIX}${gone}-abc123`);
  mkdirSync(orphan);
  made.push(own, orphan);
  expect(own.startsWith(path.join(tmpdir(), `${PREFIX}${process.pid}-`))).toBe(true);
  expect(orphanedTempDirs(PREFIX)).toEqual([orphan]);
});
