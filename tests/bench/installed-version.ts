// An installed package's version, read from its package.json in node_modules: the root's first,
// then each workspace's (npm nests a package there when workspaces need different versions), for
// packages whose exports hide it from packageVersion.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { packageVersion, PROJECT_ROOT } from "@orderbot/testkit";

const workspaces = ["apps", "packages"].flatMap((dir) =>
  readdirSync(path.join(PROJECT_ROOT, dir)).map((name) => path.join(PROJECT_ROOT, dir, name)),
);

export function installedVersion(name: string): string {
  for (const root of [PROJECT_ROOT, ...workspaces]) {
    const file = path.join(root, "node_modules", name, "package.json");
    if (existsSync(file))
      return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  }
  return packageVersion(name);
}
