// Pure checks of what a Markdown file claims: paths, npm scripts, environment variables and
// identifiers. Each takes the text and what the repository holds, and returns the stale claims.
import path from "node:path";

export interface Repo {
  /** Tracked files and every folder above them, relative to the root, "/"-separated. */
  paths: ReadonlySet<string>;
  /** Base names of the tracked files. */
  basenames: ReadonlySet<string>;
  /** Folders of the workspaces (apps/bot, packages/lock, ...): a doc may name their files. */
  workspaces: readonly string[];
  /** .gitignore's entries: made by a run or by hand (`.data/`, `docker/.env`), never tracked. */
  ignored: readonly string[];
  /** Script names by package: "" for the root, else the workspace's name and its folder. */
  scripts: ReadonlyMap<string, ReadonlySet<string>>;
  /** Variables a config schema or a script reads. */
  envNames: ReadonlySet<string>;
  /** Names some source file exports or defines. */
  identifiers: ReadonlySet<string>;
}

export interface Finding {
  kind: "path" | "link" | "script" | "env" | "identifier";
  claim: string;
}

const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;
const REPO_ROOTS = /^(apps|packages|tests|scripts|docs|prisma|docker|\.ci|\.github)\//;
const LOCAL_ROOTS = /^(\.\.?\/|src\/|test\/|bench\/)/;
const FILE_NAME = /^[\w.-]+\.(ts|js|mjs|md|sql|ya?ml|json|sh|lua|ftl|prisma|toml|csv)$/;
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const PASCAL = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;
// `name()` or `name(args)`; not `http(s)`.
const CALL = /^([A-Za-z_$][\w$]*)\((?!s\))[^()]*\)$/;

/** Inline code spans outside fenced blocks. */
export function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(FENCE, "");
  return [...prose.matchAll(/(`+)([^`\n]+?)\1(?!`)/g)].map((m) => m[2]!.trim());
}

function existsIn(repo: Repo, candidate: string): boolean {
  const p = path.posix.normalize(candidate).replace(/\/$/, "");
  if (repo.paths.has(p)) return true;
  return repo.ignored.some(
    (entry) => p === entry || p.startsWith(`${entry}/`) || path.posix.basename(p) === entry,
  );
}

/** A backticked path: under a known root, relative to the file or a workspace, or a file name. */
export function stalePaths(markdown: string, file: string, repo: Repo): Finding[] {
  const dir = path.posix.dirname(file);
  const local = (span: string) =>
    [dir, ".", ...repo.workspaces].some((base) => existsIn(repo, path.posix.join(base, span)));
  return codeSpans(markdown)
    .map((span) => span.replace(/[#:].*$/, ""))
    .filter((span) => !/[\s*<>{}$]/.test(span))
    .filter((span) => {
      if (REPO_ROOTS.test(span)) return !existsIn(repo, span) && !existsIn(repo, `${dir}/${span}`);
      // A bare `src/` or `test/` names the folder of every package.
      if (LOCAL_ROOTS.test(span)) return /\/./.test(span) && !local(span);
      if (FILE_NAME.test(span)) return !repo.basenames.has(span);
      return false;
    })
    .map((claim) => ({ kind: "path", claim }));
}

/** A relative link `[text](target)` to a file or folder that is not there. */
export function staleLinks(markdown: string, file: string, repo: Repo): Finding[] {
  const dir = path.posix.dirname(file);
  return [...markdown.replace(FENCE, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^([a-z]+:|#)/.test(target))
    .filter((target) => {
      const resolved = path.posix.normalize(path.posix.join(dir, target.replace(/#.*$/, "")));
      return resolved !== "." && !existsIn(repo, resolved);
    })
    .map((claim) => ({ kind: "link", claim }));
}

/** `npm run X` (`-w <workspace>`: its script; in a workspace's own docs, its scripts too). */
export function staleScripts(markdown: string, file: string, repo: Repo): Finding[] {
  const home = repo.workspaces.find((folder) => file.startsWith(`${folder}/`));
  const runs = markdown.matchAll(
    /npm run(?: -s)? ([\w:.-]*\w)(?:(?: -w| --workspace)[ =]([@\w/.-]*\w))?/g,
  );
  return [...runs]
    .filter(([, name, workspace]) => {
      const where = workspace === undefined ? ["", ...(home ? [home] : [])] : [workspace];
      return !where.some((pkg) => repo.scripts.get(pkg)?.has(name!));
    })
    .map(([claim]) => ({ kind: "script", claim }));
}

/** `NAME` in backticks or `NAME=value` anywhere: a variable nothing reads (nor a constant). */
export function staleEnvNames(markdown: string, repo: Repo): Finding[] {
  const spans = codeSpans(markdown)
    .map((span) => span.replace(/=.*$/, ""))
    .filter((name) => ENV_NAME.test(name) && !repo.identifiers.has(name));
  const assigned = [...markdown.matchAll(/(?<![\w$])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=/g)].map(
    (m) => m[1]!,
  );
  return [...new Set([...spans, ...assigned])]
    .filter((name) => !repo.envNames.has(name))
    .map((claim) => ({ kind: "env", claim }));
}

/** `name()` / `name(args)` or a PascalCase name in backticks that no source file defines. */
export function staleIdentifiers(
  markdown: string,
  repo: Repo,
  foreign: ReadonlySet<string> = new Set(),
): Finding[] {
  const names = codeSpans(markdown).flatMap((span) => {
    const call = CALL.exec(span);
    if (call) return [call[1]!];
    return PASCAL.test(span) ? [span] : [];
  });
  return [...new Set(names)]
    .filter((name) => !repo.identifiers.has(name) && !foreign.has(name))
    .map((claim) => ({ kind: "identifier", claim }));
}

export function staleClaims(
  markdown: string,
  file: string,
  repo: Repo,
  foreign?: ReadonlySet<string>,
): Finding[] {
  return [
    ...stalePaths(markdown, file, repo),
    ...staleLinks(markdown, file, repo),
    ...staleScripts(markdown, file, repo),
    ...staleEnvNames(markdown, repo),
    ...staleIdentifiers(markdown, repo, foreign),
  ];
}
