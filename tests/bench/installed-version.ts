// An installed package's version, read from its package.json in the root node_modules (for
// packages whose exports hide it from packageVersion).
import { readFileSync } from "node:fs";
import path from "node:path";
import { packageVersion, PROJECT_ROOT } from "@orderbot/testkit";

export function installedVersion(name: string): string {
  try {
    return (
      JSON.parse(
        readFileSync(path.join(PROJECT_ROOT, "node_modules", name, "package.json"), "utf8"),
      ) as { version: string }
    ).version;
  } catch {
    return packageVersion(name);
  }
}
