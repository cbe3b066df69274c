// Accessibility of a page as axe-core judges it: the violations with serious or critical impact.
import axe from "axe-core";
import type { Page } from "playwright-core";

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown }[];
}

/** "rule: help (targets)" for each serious or critical violation on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axe.source });
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }
    ).axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")})`);
}
