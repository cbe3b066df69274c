// A spawned app runs from a bundle of the project's own sources, built once per test process by
// esbuild, the compiler tsx runs on the fly. Under `node --import tsx`, every process resolves and
// compiles its few hundred modules again through loader hooks on a second thread; the bundle
// leaves it one file to compile and no hooks. Packages stay external, imported from the files
// Node's own resolution would load, and each module keeps its own import.meta paths, so the files
// found next to the sources (migrations, locales, .env) are the same ones.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { PROJECT_ROOT } from "../services/env.ts";
import { makeOwnedTempDir, orphanedTempDirs } from "../services/owned-temp-dirs.ts";

const bundles = new Map<string, Promise<string>>();
let outdir: string | undefined;

/**
 * The bundle of `entry` (relative to `root`, this checkout unless another release's tree is given),
 * built on first use in this process.
 */
export function appBundle(entry: string, root = PROJECT_ROOT): Promise<string> {
  const key = path.join(root, entry);
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = buildBundle(key);
    bundles.set(key, bundle);
  }
  return bundle;
}

const DIR_PREFIX = "orderbot-apps-";

async function buildBundle(entryPath: string): Promise<string> {
  if (!outdir) {
    // A test worker killed by vitest leaves its bundles behind.
    for (const stale of orphanedTempDirs(DIR_PREFIX))
      rmSync(stale, { recursive: true, force: true });
    const dir = makeOwnedTempDir(DIR_PREFIX);
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    outdir = dir;
  }
  const outfile = path.join(outdir, `${entryPath.replaceAll(/[^\w.-]/g, "_")}.mjs`);
  await build({
    entryPoints: [entryPath],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    conditions: [], // Node's own: no "module" condition, which Node does not know
    keepNames: true, // error and class names read the same as from source
    logLevel: "error",
    plugins: [packagesAsNodeFindsThem, sourcePathsKept],
  });
  return outfile;
}

const RESOLVING = Symbol("resolving");

/** Every import that is not the project's own stays an import, of the file Node would load. */
const packagesAsNodeFindsThem: Plugin = {
  name: "packages-as-node-finds-them",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === RESOLVING || args.path.startsWith("@orderbot/")) return undefined;
      if (args.path.startsWith("node:")) return { path: args.path, external: true };
      const found = await esbuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: RESOLVING,
      });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: found.path, external: true };
    });
  },
};

/** `import.meta.dirname`, `.filename` and `.url` keep meaning the source file they are in. */
const sourcePathsKept: Plugin = {
  name: "source-paths-kept",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, (args) => ({
      loader: "ts",
      contents: readFileSync(args.path, "utf8")
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path))
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
    }));
  },
};
