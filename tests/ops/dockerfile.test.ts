// docker/Dockerfile, checked without a Docker engine: the stages and targets compose uses exist,
// the image runs as a non-root user, everything it copies exists, and "production dependencies
// only" holds: production code imports only packages its workspace declares as dependencies
// (so `npm ci --omit=dev` in the image installs everything the code loads).
import { readFile, readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { DOCKER_DIR } from "./support/tools.ts";

const dockerfile = await readFile(path.join(DOCKER_DIR, "Dockerfile"), "utf8");
const instructions = dockerfile
  .replace(/\\\n\s*/g, " ")
  .split("\n")
  .filter((line) => line.trim() && !line.trimStart().startsWith("#"));
const stages = instructions
  .filter((line) => line.startsWith("FROM "))
  .map((line) => /\sAS\s+(\S+)/i.exec(line)?.[1]);

/** The instructions of one stage, from its FROM to the next. */
function stage(name: string): string[] {
  const start = instructions.findIndex((line) =>
    new RegExp(`^FROM .* AS ${name}$`, "i").test(line),
  );
  const next = instructions.findIndex((line, i) => i > start && line.startsWith("FROM "));
  return instructions.slice(start, next < 0 ? undefined : next);
}

describe("docker/Dockerfile", () => {
  it("builds the targets compose uses, the bot being the default (last) stage", () => {
    expect(stages).toEqual(
      expect.arrayContaining(["build", "prod-deps", "runtime", "migrate", "app"]),
    );
    expect(stages.at(-1)).toBe("app");
    expect(stage("migrate").join("\n")).toContain(
      'CMD ["node", "--import", "tsx", "packages/db/src/cli/migrate.ts"]',
    );
    expect(stage("app").join("\n")).toContain(
      'CMD ["node", "--import", "tsx", "apps/bot/src/main.ts"]',
    );
  });

  it("runs as a non-root user in every stage that ships", () => {
    const runtime = stage("runtime");
    const users = runtime.filter((line) => line.startsWith("USER "));
    expect(users.at(-1)).toBe("USER node");
    for (const name of ["migrate", "app"])
      expect(stage(name).some((line) => line.startsWith("USER "))).toBe(false);
    expect(stage("migrate")[0]).toMatch(/^FROM runtime AS migrate$/);
    expect(stage("app")[0]).toMatch(/^FROM runtime AS app$/);
  });

  it("installs production dependencies only, and generates the Prisma client offline in the build stage", () => {
    const install = stage("prod-deps").find((line) => line.includes("npm ci"));
    expect(install).toContain("--omit=dev");
    expect(stage("build").join("\n")).toContain("RUN scripts/prisma-generate");
    expect(stage("runtime").join("\n")).not.toMatch(/npm (ci|install)/);
  });

  it("brings the dependencies npm nests under a workspace (another version is hoisted to the root)", async () => {
    const lock = JSON.parse(
      await readFile(path.join(PROJECT_ROOT, "package-lock.json"), "utf8"),
    ) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const nested = Object.entries(lock.packages).filter(
      ([key, entry]) => /^(packages|apps)\/[^/]+\/node_modules\//.test(key) && !entry.dev,
    );
    const copiesAll = stage("runtime").includes("COPY --from=prod-deps /app ./");
    const copiesRootOnly = stage("runtime").some((line) =>
      line.startsWith("COPY --from=prod-deps /app/node_modules"),
    );
    expect(
      copiesAll || (nested.length === 0 && copiesRootOnly),
      `nested production dependencies: ${nested.map(([k]) => k).join(", ")}`,
    ).toBe(true);
  });

  it("copies only paths that exist in the repository", () => {
    const sources = instructions
      .filter((line) => line.startsWith("COPY ") && !line.includes("--from="))
      .flatMap((line) =>
        line
          .split(/\s+/)
          .slice(1, -1)
          .filter((arg) => !arg.startsWith("--")),
      );
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources)
      expect(existsSync(path.join(PROJECT_ROOT, source)), source).toBe(true);
  });

  it("names workspaces that exist", async () => {
    const names = [...dockerfile.matchAll(/--workspace (@orderbot\/[a-z-]+)/g)].map((m) => m[1]);
    const workspaces = await workspaceManifests();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(workspaces.map((w) => w.manifest.name)).toContain(name);
  });

  it("runs on the Node.js major CI tests, one that package.json supports", async () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)[-.]/m.exec(dockerfile)?.[1];
    const ci = await readFile(path.join(PROJECT_ROOT, ".ci/run"), "utf8");
    // A command line of .ci/run (not a comment) that runs on another Node.js major.
    const tested = [...ci.matchAll(/^[^#\n]*\bscripts\/with-node (\d+) -- /gm)].map((m) => m[1]);
    expect(image).toBeDefined();
    expect(tested).toContain(image);
    for (const from of instructions.filter((line) => line.startsWith("FROM ")))
      expect(from).toMatch(/^FROM (\$\{NODE_IMAGE\}|[a-z-]+) AS /);
    const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, "package.json"), "utf8"));
    expect((manifest as { engines: { node: string } }).engines.node).toContain(`^${image}`);
  });

  it("brings every package tsx needs at runtime (tsx is a dev dependency, copied from the build stage)", async () => {
    const lock = JSON.parse(
      await readFile(path.join(PROJECT_ROOT, "package-lock.json"), "utf8"),
    ) as {
      packages: Record<
        string,
        { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }
      >;
    };
    const tsx = lock.packages["node_modules/tsx"];
    expect(tsx).toBeDefined();
    const copied = [...dockerfile.matchAll(/COPY --from=build \/app\/node_modules\/(\S+) /g)].map(
      (m) => m[1],
    );
    for (const dependency of Object.keys(tsx!.dependencies ?? {}))
      expect(copied).toContain(dependency);
    const esbuildPlatforms = Object.keys(
      lock.packages["node_modules/esbuild"]?.optionalDependencies ?? {},
    );
    expect(esbuildPlatforms.every((p) => p.startsWith("@esbuild/"))).toBe(true);
    expect(copied).toEqual(expect.arrayContaining(["tsx", "esbuild", "@esbuild"]));
  });
});

interface Workspace {
  dir: string;
  manifest: { name: string; dependencies?: Record<string, string> };
}

async function workspaceManifests(): Promise<Workspace[]> {
  const workspaces: Workspace[] = [];
  for (const group of ["apps", "packages"]) {
    for (const name of await readdir(path.join(PROJECT_ROOT, group))) {
      const dir = path.join(PROJECT_ROOT, group, name);
      if (!existsSync(path.join(dir, "package.json"))) continue;
      workspaces.push({
        dir,
        manifest: JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")),
      });
    }
  }
  return workspaces;
}

/** Runtime imports of a file: static imports and re-exports that are not type-only, side-effect imports, dynamic imports. */
function runtimeImports(source: string): string[] {
  const pattern =
    /^\s*(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;
  return [...source.matchAll(pattern)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

const packageName = (specifier: string) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;

describe("production dependencies", () => {
  it("the import scanner sees runtime imports and skips type-only ones", () => {
    const source =
      'import type { A } from "a-types";\nimport { b, type C } from "b";\nimport "c/register";\nexport { d } from "@scope/d/sub";\nconst e = await import("e");';
    expect(runtimeImports(source).map(packageName)).toEqual(["b", "c", "@scope/d", "e"]);
  });

  it("every package production code imports is a dependency (not a dev dependency) of its workspace", async () => {
    const problems: string[] = [];
    const workspaces = (await workspaceManifests()).filter(
      (w) => w.manifest.name !== "@orderbot/testkit",
    );
    for (const { dir, manifest } of workspaces) {
      const declared = new Set(Object.keys(manifest.dependencies ?? {}));
      const files = (await readdir(path.join(dir, "src"), { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts"))
        .map((e) => path.join(e.parentPath, e.name))
        .filter((file) => !/[/\\](test|__tests__)[/\\]/.test(path.relative(dir, file)));
      for (const file of files) {
        for (const specifier of runtimeImports(await readFile(file, "utf8"))) {
          if (
            specifier.startsWith(".") ||
            specifier.startsWith("node:") ||
            builtinModules.includes(specifier)
          )
            continue;
          const name = packageName(specifier);
          if (!declared.has(name))
            problems.push(
              `${path.relative(PROJECT_ROOT, file)} imports ${name}, not in ${manifest.name}'s dependencies`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
    expect(workspaces.length).toBeGreaterThanOrEqual(5);
  });
});
