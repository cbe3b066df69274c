// A CPU profile of this process (node:inspector, the Profiler domain), its samples attributed by
// the module of the function that was on the CPU: the share of each library and of the project's
// own parts. A sample counts for the innermost frame whose script matches a category, so the
// time a library spends in its own helpers (or in node's) counts for that library.
import { Session } from "node:inspector/promises";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  parent?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** A category: its name and what the script URL of one of its frames contains. */
export interface Category {
  name: string;
  match: (url: string, functionName: string) => boolean;
}

const has =
  (...parts: string[]) =>
  (url: string) =>
    parts.some((part) => url.includes(part));

/** Prisma's client: the runtime, the generated client and the driver adapter. */
export const PRISMA: Category = {
  name: "Prisma client (@prisma/*, generated client)",
  match: has("/@prisma/", "/db/src/generated/", "/.prisma/"),
};

export const PG: Category = {
  name: "pg driver (pg, pg-protocol, pg-pool)",
  match: has("/node_modules/pg/", "/pg-protocol/", "/pg-pool/", "/pg-types/"),
};

export const IOREDIS: Category = {
  name: "Redis client (ioredis)",
  match: has("/ioredis/", "/redis-parser/", "/@ioredis/"),
};

/** Everything else, in the order they are tried on each frame (innermost frame first). */
export const COMMON_TAIL: Category[] = [
  {
    name: "garbage collection",
    match: (_url, fn) => fn === "(garbage collector)",
  },
  { name: "node internals (http, net, streams, timers)", match: (url) => url.startsWith("node:") },
  { name: "other (V8, native, unattributed)", match: () => true },
];

export interface ProfileShare {
  name: string;
  ms: number;
  share: number;
}

export interface CpuProfiler {
  stop(): Promise<{ totalMs: number; shares: ProfileShare[] }>;
}

/** Starts sampling every `intervalUs` microseconds; stop() attributes the samples. */
export async function startCpuProfile(
  categories: Category[],
  intervalUs = 200,
): Promise<CpuProfiler> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: intervalUs });
  await session.post("Profiler.start");
  return {
    async stop() {
      const { profile } = (await session.post("Profiler.stop")) as { profile: Profile };
      session.disconnect();
      return attribute(profile, [...categories, ...COMMON_TAIL]);
    },
  };
}

function attribute(
  profile: Profile,
  categories: Category[],
): { totalMs: number; shares: ProfileShare[] } {
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) byId.set(node.id, node);
  for (const node of profile.nodes)
    for (const child of node.children ?? []) {
      const found = byId.get(child);
      if (found) found.parent = node.id;
    }
  const categoryOf = new Map<number, string | null>();
  const classify = (id: number): string | null => {
    const cached = categoryOf.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id)!;
    const { url, functionName } = node.callFrame;
    let result: string | null;
    if (functionName === "(idle)" || functionName === "(root)") result = null;
    else {
      // The innermost frame that belongs to a named library or part decides; frames of node itself
      // and anonymous ones defer to their caller first.
      const own = categories.slice(0, -COMMON_TAIL.length).find((c) => c.match(url, functionName));
      if (own) result = own.name;
      else {
        const parent = node.parent === undefined ? null : classifyParent(node.parent);
        result = parent ?? COMMON_TAIL.find((c) => c.match(url, functionName))?.name ?? "other";
      }
    }
    categoryOf.set(id, result);
    return result;
  };
  // A parent's own category, without falling back to the tail (null: none up the stack).
  const ownUp = new Map<number, string | null>();
  const classifyParent = (id: number): string | null => {
    const cached = ownUp.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id)!;
    const { url, functionName } = node.callFrame;
    const own = categories.slice(0, -COMMON_TAIL.length).find((c) => c.match(url, functionName));
    const result = own ? own.name : node.parent === undefined ? null : classifyParent(node.parent);
    ownUp.set(id, result);
    return result;
  };
  const ms = new Map<string, number>();
  let total = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time before sample i; the next delta is the time sample i stood for.
    const span = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    const name = classify(samples[i]!);
    if (name === null) continue;
    ms.set(name, (ms.get(name) ?? 0) + span);
    total += span;
  }
  const order = [...categories.map((c) => c.name), "other"];
  const shares = [...ms]
    .map(([name, value]) => ({ name, ms: value, share: total > 0 ? value / total : 0 }))
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  return { totalMs: total, shares };
}
