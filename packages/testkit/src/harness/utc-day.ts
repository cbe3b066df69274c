const DAY_MS = 86_400_000;

/**
 * Waits for the next UTC day when fewer than `runMs` are left of this one. For a test whose check
 * reads "today's" figures (the operators' /report, by UTC day) over what it did earlier: a run that
 * straddled midnight UTC read the new day's figures, empty.
 */
export async function withinOneUtcDay(runMs: number): Promise<void> {
  const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
  if (untilMidnight < runMs)
    await new Promise((resolve) => setTimeout(resolve, untilMidnight + 1_000));
}
