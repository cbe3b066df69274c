/** One invariant's verdict, with a few examples of what broke it. */
export interface InvariantResult {
  name: string;
  ok: boolean;
  violations: number;
  examples: string[];
}

/** The verdict of a check whose query lists the rows that break it. */
export function verdict(
  name: string,
  rows: Record<string, unknown>[],
  describe: (row: Record<string, unknown>) => string,
): InvariantResult {
  return {
    name,
    ok: rows.length === 0,
    violations: rows.length,
    examples: rows.slice(0, 5).map(describe),
  };
}
