// The report's table: one row per scenario, one column per invariant (short labels, legend below).
import type { FaultCounts } from "./fault.ts";
import type { ScenarioResult } from "./scenario.ts";

/** Short column labels for the invariants, by the start of their names. */
const LABELS: [RegExp, string][] = [
  [/^stock equals the ledger/, "ledger"],
  [/^no product is oversold/, "oversold"],
  [/^every order is well-formed/, "orders ok"],
  [/^each order's stock is held/, "held"],
  [/^each paid order has exactly one/, "1 payment"],
  [/^every order that moved/, "moves"],
  [/^captured money/, "money"],
  [/^captured payments sum/, "money sum"],
  [/^no reservation is left/, "expiry"],
  [/^the outbox delivered/, "outbox"],
  [/^each successful_payment/, "charges"],
  [/^refunds were issued/, "refunds"],
  [/^every charge is accounted for/, "accounted"],
  [/^every update was delivered in the end/, "delivered"],
  [/^every update delivered/, "updates"],
  [/^every press of Order/, "presses"],
  [/^every \/stock change/, "restocks"],
  [/^no order was created without/, "locks"],
  [/^every planned fault/, "faults"],
  [/^during the Redis outage/, "outage"],
];

export function labelOf(name: string): string {
  return LABELS.find(([pattern]) => pattern.test(name))?.[1] ?? name.slice(0, 10);
}

export function describeFaults(c: FaultCounts): string {
  const parts: string[] = [];
  if (c.botKills) parts.push(`${c.botKills} bot kill`);
  if (c.pauses) parts.push(`${c.pauses} SIGSTOP (${c.orderLocksExpiredWhilePaused} lock expired)`);
  if (c.redisRestarts) parts.push(`${c.redisRestarts} Redis restart`);
  if (c.postgresRestarts) parts.push(`${c.postgresRestarts} PG restart`);
  if (c.chargesDuringOutage) parts.push(`${c.chargesDuringOutage} paid while PG down`);
  if (c.workerKills)
    parts.push(`${c.workerKills} worker kill (${c.workerKillsMidBatch} mid-batch)`);
  if (c.telegram429 || c.telegram500) parts.push(`${c.telegram429}×429 ${c.telegram500}×500`);
  if (c.redisFills) parts.push(`${c.redisFills} Redis full`);
  if (c.floodUpdates) parts.push(`${c.floodUpdates} flood (${c.floodLimited} limited)`);
  if (c.duplicateDeliveries || c.droppedResponses)
    parts.push(`${c.duplicateDeliveries} dup ${c.droppedResponses} lost 2xx`);
  return parts.join(", ") || "none";
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - [...text].length));
}

/** A plain-text table (Markdown-compatible), then the legend of invariant labels. */
export function formatTable(results: ScenarioResult[]): string {
  const labels: string[] = [];
  const names = new Map<string, string>();
  for (const r of results) {
    for (const i of r.invariants) {
      const label = labelOf(i.name);
      if (!labels.includes(label)) labels.push(label);
      if (!names.has(label)) names.set(label, i.name.replace(/: \d+ placements.*$/, ""));
    }
  }
  const header = ["scenario", "s", "updates", "orders", "faults injected", ...labels];
  const rows = results.map((r) => {
    const cells = labels.map((label) => {
      const found = r.invariants.find((i) => labelOf(i.name) === label);
      if (!found) return "–";
      return found.ok ? "ok" : `FAIL(${found.violations})`;
    });
    return [
      r.name,
      r.seconds.toFixed(0),
      String(r.updates),
      String(r.orders),
      describeFaults(r.counts),
      ...cells,
    ];
  });
  const widths = header.map((h, i) =>
    Math.max([...h].length, ...rows.map((row) => [...row[i]!].length)),
  );
  const line = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i]!)).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  const legend = labels.map((label) => `  ${pad(label, 10)} ${names.get(label)}`);
  return [line(header), rule, ...rows.map(line), "", "invariants:", ...legend].join("\n");
}
