// What the repository holds, for the claims checks: tracked paths, npm scripts, the variables
// read, the names defined. Read once from git and the files, no services.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { configSources } from "../../scripts/lib/config-sources.ts";
import type { Repo } from "./claims.ts";

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");

export function trackedFiles(pattern?: string): string[] {
  const args = ["ls-files", "-z", ...(pattern ? [pattern] : [])];
  return execFileSync("git", args, { cwd: PROJECT_ROOT, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
}

function allPaths(files: readonly string[]): Set<string> {
  const paths = new Set<string>();
  for (const file of files) for (let p = file; p !== "."; p = path.posix.dirname(p)) paths.add(p);
  return paths;
}

function scriptsByPackage(files: readonly string[]): Map<string, Set<string>> {
  const scripts = new Map<string, Set<string>>();
  for (const file of files.filter(
    (f) => f === "package.json" || /^(apps|packages)\/[^/]+\/package\.json$/.test(f),
  )) {
    const json = JSON.parse(read(file)) as { name?: string; scripts?: Record<string, string> };
    const names = new Set(Object.keys(json.scripts ?? {}));
    if (file === "package.json") scripts.set("", names);
    else {
      scripts.set(json.name ?? "", names);
      scripts.set(path.posix.dirname(file), names);
    }
  }
  return scripts;
}

const VAR = "[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*";

function envNames(files: readonly string[], sources: string[]): Set<string> {
  const names = new Set(sources);
  const add = (text: string, pattern: RegExp) => {
    for (const m of text.matchAll(pattern)) names.add(m[1]!);
  };
  for (const file of files) {
    if (/\.(ts|js|mjs)$/.test(file)) {
      const text = read(file);
      add(text, new RegExp(`process\\.env\\.(${VAR})`, "g"));
      add(text, new RegExp(`process\\.env\\[["'](${VAR})["']\\]`, "g"));
    }
    if (/^(scripts|docker)\//.test(file) && !/\.(png|svg)$/.test(file)) {
      const text = read(file);
      add(text, new RegExp(`\\$\\{?(${VAR})`, "g"));
      if (file.startsWith("docker/")) add(text, new RegExp(`^\\s+-?\\s*(${VAR})[:=]`, "gm"));
    }
  }
  return names;
}

const DEFINITIONS = [
  /\b(?:function\*?|const|let|var|class|interface|type|enum|model)\s+([A-Za-z_$][\w$]*)/g,
  /^\s*(?:async\s+)?(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*(?:\(|:)/gm,
  /\bexport\s*\{([^}]*)\}/g,
  /\bCREATE (?:OR REPLACE )?FUNCTION\s+([\w.]+)/gi,
  // A value the code holds verbatim (a Bot API error, a default name) is the code's too.
  /(["'])([A-Za-z_]\w*)\1/g,
];

function identifiers(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  // tests/docs/ holds the checks' own fixtures: stale names on purpose.
  const sources = files.filter(
    (f) => /\.(ts|mjs|js|prisma|sql)$/.test(f) && !f.startsWith("tests/docs/"),
  );
  for (const file of sources) {
    const text = read(file);
    for (const pattern of DEFINITIONS)
      for (const m of text.matchAll(pattern))
        for (const name of m[m.length - 1]!.split(","))
          names.add(
            name
              .replace(/^\s*type\s+/, "")
              .split(/\s+as\s+/)
              .pop()!
              .trim(),
          );
  }
  // Alert names are defined by the Prometheus rules.
  for (const file of files.filter((f) => /^docker\/.*\.ya?ml$/.test(f)))
    for (const m of read(file).matchAll(/\balert: (\w+)/g)) names.add(m[1]!);
  // Values of Prisma enums (order statuses) are defined names too.
  for (const m of read("prisma/schema.prisma").matchAll(/^enum \w+ \{([^}]*)\}/gm))
    for (const value of m[1]!.match(/\b[A-Z][A-Z0-9_]*\b/g) ?? []) names.add(value);
  return names;
}

export function readRepo(): Repo {
  const files = trackedFiles();
  const sources = configSources();
  const settings = [sources.shared, sources.bot, sources.worker].flatMap((doc) =>
    Object.keys(doc.properties),
  );
  return {
    paths: allPaths(files),
    workspaces: files
      .filter((file) => /^(apps|packages)\/[^/]+\/package\.json$/.test(file))
      .map((file) => path.posix.dirname(file)),
    ignored: read(".gitignore")
      .split("\n")
      .map((line) =>
        line
          .trim()
          .replace(/^(\*\*)?\//, "")
          .replace(/\/$/, ""),
      )
      .filter((line) => line && !line.startsWith("#") && !line.includes("*")),
    basenames: new Set(files.map((file) => path.posix.basename(file))),
    scripts: scriptsByPackage(files),
    envNames: envNames(files, settings),
    identifiers: identifiers(files),
  };
}

/** PostgreSQL's own functions that the docs name as `name()`. */
const POSTGRES_FUNCTIONS = ["pg_advisory_lock", "pg_advisory_xact_lock", "now", "gen_random_uuid"];

/** Names that are not ours to define: JavaScript's globals and PostgreSQL's functions. */
export function foreignNames(): Set<string> {
  return new Set([...Object.getOwnPropertyNames(globalThis), ...POSTGRES_FUNCTIONS]);
}
