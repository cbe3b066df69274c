// Temporary folders named after the process that made them (`<prefix><pid>-XXXXXX`), so that a
// later run can tell the ones a killed process left behind from those of a run still going.
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { processAlive } from "./process-alive.ts";

/** A new folder in the temporary directory, owned by this process. */
export function makeOwnedTempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `${prefix}${process.pid}-`));
}

/** The folders of this prefix whose owner process is gone. */
export function orphanedTempDirs(prefix: string): string[] {
  const owned = new RegExp(`^${prefix}(\\d+)-`);
  return readdirSync(tmpdir()).flatMap((name) => {
    const owner = owned.exec(name)?.[1];
    return owner !== undefined && !processAlive(Number(owner)) ? [path.join(tmpdir(), name)] : [];
  });
}
