/** A job run as the runner's debug log records it ("job run started" / "job run finished"). */
export interface JournalRun {
  worker: string;
  job: string;
  fence: number | null;
  start: number;
  end: number | null;
  outcome: string | null;
}

interface LogLine {
  time?: number;
  msg?: string;
  job?: string;
  fence?: number | null;
  outcome?: string;
}

/** Pairs each process's "job run started" with its "job run finished" lines, for one job. */
export function journal(worker: string, lines: readonly string[], job: string): JournalRun[] {
  const runs: JournalRun[] = [];
  let open: JournalRun | null = null;
  for (const line of lines) {
    let entry: LogLine;
    try {
      entry = JSON.parse(line) as LogLine;
    } catch {
      continue;
    }
    if (entry.job !== job || typeof entry.time !== "number") continue;
    if (entry.msg === "job run started") {
      open = {
        worker,
        job,
        fence: entry.fence ?? null,
        start: entry.time,
        end: null,
        outcome: null,
      };
      runs.push(open);
    } else if (entry.msg === "job run finished" && open) {
      open.end = entry.time;
      open.outcome = entry.outcome ?? null;
      open = null;
    }
  }
  return runs;
}
