// What every container of a compose stack must have: memory, CPU and process limits, a
// healthcheck (one-off jobs, `restart: "no"`, excepted: they exit), and rotated logs.
import type { RenderedService } from "./compose-render.ts";

/** One line per missing rule, as "service: what it lacks". */
export function containerProblems(services: Record<string, RenderedService>): string[] {
  const problems: string[] = [];
  for (const [name, service] of Object.entries(services)) {
    const limits = service.deploy?.resources?.limits;
    if (!limits?.memory) problems.push(`${name}: no memory limit`);
    if (!limits?.cpus) problems.push(`${name}: no CPU limit`);
    if (!service.pids_limit) problems.push(`${name}: no process limit`);
    const oneOff = service.restart === "no";
    const checked = service.healthcheck?.test && !service.healthcheck.disable;
    if (!oneOff && !checked) problems.push(`${name}: no healthcheck`);
    const rotating = ["json-file", "local"].includes(service.logging?.driver ?? "");
    if (!rotating || !service.logging?.options?.["max-size"])
      problems.push(`${name}: no log rotation`);
  }
  return problems;
}
