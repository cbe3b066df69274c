// What every container of a compose stack must have: memory, CPU and process limits, a
// healthcheck (one-off jobs, `restart: "no"`, excepted: they exit), rotated logs, every capability
// dropped (a few added back by name) and no privilege gained through exec.
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
    if (!service.cap_drop?.includes("ALL")) problems.push(`${name}: capabilities not dropped`);
    if (!service.security_opt?.includes("no-new-privileges:true"))
      problems.push(`${name}: may gain privileges`);
  }
  return problems;
}
