// npm run lint's dependency check: every dependency a workspace declares is used by it, imported
// by a file of its own or run as a command by its scripts. ESLint already refuses the opposite (an
// import that is not declared); this catches a package left behind when its last import went.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;
const SKIPPED = new Set(["node_modules", "dist", ".turbo", ".data", ".git"]);
// import/export ... from "x", import("x"), require("x"), createRequire(...)("x"), --import x
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\)\(\s*|--import[= ])["']?([^"'\s)]+)/g;
// A package loaded by its name at run time (a logger transport, a plugin): "name" in a source file.
const QUOTED = /["']((?:@[\w.-]+\/)?[\w.-]+)["']/g;

interface Manifest {
  workspaces?: string[];
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface InstalledManifest {
  bin?: string | Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = async <T>(file: string): Promise<T> =>
  JSON.parse(await readFile(file, "utf8")) as T;

/** The package a specifier names: "@scope/name/sub" -> "@scope/name", "pkg/sub" -> "pkg". */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:"))
    return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? null);
}

/** Every file under `dir`, without dependencies, generated code or nested workspaces. */
async function filesOf(dir: string, nested: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) && !nested.has(full))
        found.push(...(await filesOf(full, nested)));
    } else if (entry.isFile()) found.push(full);
  }
  return found;
}

/** A dependency's own manifest (its commands, its peers), or nothing when it is not installed. */
async function manifestOf(root: string, name: string): Promise<InstalledManifest> {
  try {
    return await readJson<InstalledManifest>(path.join(root, "node_modules", name, "package.json"));
  } catch {
    return {};
  }
}

/** The command names a dependency installs (its package.json `bin`). */
function binsOf(name: string, manifest: InstalledManifest): string[] {
  if (typeof manifest.bin === "string") return [name.split("/").pop() ?? name];
  return Object.keys(manifest.bin ?? {});
}

/** What the workspace's files import, and the text its scripts run (package.json, shell scripts). */
async function usageOf(dir: string, manifest: Manifest, nested: ReadonlySet<string>) {
  const imported = new Set<string>();
  let commands = Object.values(manifest.scripts ?? {}).join("\n");
  for (const file of await filesOf(dir, nested)) {
    const text = await readFile(file, "utf8");
    if (SOURCE.test(file) || file.endsWith(".json")) {
      for (const match of text.matchAll(SPECIFIER)) {
        const name = packageOf(match[1] ?? "");
        if (name) imported.add(name);
      }
      if (SOURCE.test(file)) for (const match of text.matchAll(QUOTED)) imported.add(match[1]!);
    }
    if (text.startsWith("#!") || file.endsWith(".sh")) commands += `\n${text}`;
  }
  return { imported, commands };
}

/**
 * The declared dependencies a workspace never uses. Used: imported or loaded by name by one of its
 * files; a command of it run by a script; `@types/x` with `x` (`@types/node` always); or a peer
 * of another declared dependency (declared to pin the peer's version).
 */
export async function unusedDependencies(
  root: string,
  dir: string,
  nested: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const manifest = await readJson<Manifest>(path.join(dir, "package.json"));
  const declared = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
  ];
  const installed = new Map<string, InstalledManifest>();
  for (const name of declared) installed.set(name, await manifestOf(root, name));
  const peers = new Set(
    [...installed.values()].flatMap((m) => Object.keys(m.peerDependencies ?? {})),
  );
  const { imported, commands } = await usageOf(dir, manifest, nested);
  const runs = (bin: string) =>
    new RegExp(`(^|[\\s/"'(])${bin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$|["')])`, "m").test(
      commands,
    );
  return declared.filter((name) => {
    if (imported.has(name) || peers.has(name) || name === "@types/node") return false;
    if (name.startsWith("@types/")) {
      const typed = name.slice("@types/".length);
      if (imported.has(typed.includes("__") ? `@${typed.replace("__", "/")}` : typed)) return false;
    }
    return !binsOf(name, installed.get(name) ?? {}).some(runs);
  });
}

/** The repository's workspaces (the root first), as the root package.json lists them. */
export async function workspacesOf(root: string): Promise<string[]> {
  const manifest = await readJson<Manifest>(path.join(root, "package.json"));
  const dirs = [root];
  for (const pattern of manifest.workspaces ?? []) {
    const parent = path.join(root, pattern.replace(/\/\*$/, ""));
    for (const entry of await readdir(parent, { withFileTypes: true }))
      if (entry.isDirectory()) dirs.push(path.join(parent, entry.name));
  }
  return dirs;
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, "../..");
  const [self, ...workspaces] = await workspacesOf(root);
  const problems: string[] = [];
  for (const dir of [self!, ...workspaces]) {
    const nested = dir === root ? new Set(workspaces) : new Set<string>();
    for (const name of await unusedDependencies(root, dir, nested))
      problems.push(
        `${path.relative(root, dir) || "."}/package.json: ${name} is declared but never used`,
      );
  }
  for (const line of problems) console.error(line);
  if (problems.length > 0) process.exit(1);
  console.log(`dependencies: every declared one is used (${workspaces.length + 1} workspaces)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
