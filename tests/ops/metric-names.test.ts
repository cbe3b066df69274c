// Every metric the alert rules, their unit tests and the Grafana dashboard name is one the code
// declares, so a renamed metric cannot leave a dashboard panel empty or an alert silent. Declared
// means `name: "orderbot_..."` in a prom-client constructor, a value of a `*_METRICS` constant
// (LOCK_METRICS, WORKER_METRICS ...), or a `# TYPE orderbot_...` line the backup script writes for
// node-exporter. Histogram series (_bucket, _sum, _count) count as their base.
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { DOCKER_DIR, run, tool } from "./support/tools.ts";

const METRIC = /\borderbot_[a-z0-9_]+\b/g;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name))
    .filter(
      (file) =>
        !file.includes(`${path.sep}generated${path.sep}`) &&
        !file.includes(`${path.sep}node_modules${path.sep}`),
    );
}

/** Metric names declared by the production code (apps and packages, without the test kit). */
async function declaredMetrics(): Promise<Set<string>> {
  const roots = [
    ...(await readdir(path.join(PROJECT_ROOT, "apps"))).map((name) =>
      path.join(PROJECT_ROOT, "apps", name, "src"),
    ),
    ...(await readdir(path.join(PROJECT_ROOT, "packages")))
      .filter((name) => name !== "testkit")
      .map((name) => path.join(PROJECT_ROOT, "packages", name, "src")),
  ];
  const declared = new Set<string>();
  for (const root of roots) {
    for (const file of await sourceFiles(root).catch(() => [])) {
      const text = await readFile(file, "utf8");
      for (const m of text.matchAll(/\bname:\s*["'`](orderbot_[a-z0-9_]+)["'`]/g))
        declared.add(m[1]!);
      for (const block of text.matchAll(/const\s+\w*METRICS\w*\s*=\s*\{([\s\S]*?)\}\s*as const/g)) {
        for (const m of block[1]!.matchAll(/["'`](orderbot_[a-z0-9_]+)["'`]/g)) declared.add(m[1]!);
      }
    }
  }
  const backup = await readFile(path.join(DOCKER_DIR, "backup/pg-backup.sh"), "utf8");
  for (const m of backup.matchAll(/# TYPE (orderbot_[a-z0-9_]+) /g)) declared.add(m[1]!);
  return declared;
}

interface Panel {
  title?: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
}

/** Every PromQL query of the dashboard: panel targets and template variable queries. */
function dashboardQueries(dashboard: {
  panels: Panel[];
  templating?: { list: { query?: string | { query?: string } }[] };
}): string[] {
  const queries: string[] = [];
  const visit = (panels: Panel[]) => {
    for (const panel of panels) {
      for (const target of panel.targets ?? []) if (target.expr) queries.push(target.expr);
      visit(panel.panels ?? []);
    }
  };
  visit(dashboard.panels);
  for (const variable of dashboard.templating?.list ?? []) {
    const query = typeof variable.query === "string" ? variable.query : variable.query?.query;
    if (query) queries.push(query);
  }
  return queries;
}

const baseName = (name: string, declared: Set<string>) => {
  const base = name.replace(/_(bucket|sum|count)$/, "");
  return declared.has(name) ? name : base;
};

const declared = await declaredMetrics();
const rules = await readFile(path.join(DOCKER_DIR, "prometheus/alerts.yml"), "utf8");
const ruleTests = await readFile(path.join(DOCKER_DIR, "prometheus/alerts.test.yml"), "utf8");
const dashboard = JSON.parse(
  await readFile(path.join(DOCKER_DIR, "grafana/dashboards/orderbot.json"), "utf8"),
);
const queries = dashboardQueries(dashboard);
const ruleExpressions = [...rules.matchAll(/expr:\s*\|?\s*\n?([\s\S]*?)\n\s*(?:for|labels):/g)].map(
  (m) => m[1]!,
);

function undeclared(texts: string[]): string[] {
  const missing = new Set<string>();
  for (const text of texts)
    for (const [name] of text.matchAll(METRIC))
      if (!declared.has(baseName(name, declared))) missing.add(name);
  return [...missing].sort();
}

describe("metric names", () => {
  it("the scan finds the declarations it is meant to find", () => {
    for (const name of [
      "orderbot_updates_total",
      "orderbot_update_duration_seconds",
      "orderbot_lock_acquire_total",
      "orderbot_lock_redis_command_seconds",
      "orderbot_job_runs_total",
      "orderbot_backup_last_success_timestamp_seconds",
    ]) {
      expect([...declared]).toContain(name);
    }
    expect(ruleExpressions.length).toBeGreaterThanOrEqual(9);
    expect(queries.length).toBeGreaterThanOrEqual(20);
  });

  it("every metric the alert rules use is declared in the code", () => {
    expect(undeclared(ruleExpressions)).toEqual([]);
  });

  it("the alert unit tests feed series with the declared names", () => {
    const series = [...ruleTests.matchAll(/series:\s*'([^']+)'/g)].map((m) => m[1]!.split("{")[0]!);
    expect(series.length).toBeGreaterThan(0);
    expect(undeclared(series)).toEqual([]);
  });

  it("every metric the Grafana dashboard uses is declared in the code", () => {
    expect(undeclared(queries)).toEqual([]);
  });

  it("a name that is not declared is reported (the check can fail)", () => {
    expect(
      undeclared(["rate(orderbot_not_a_metric_total[5m])", "orderbot_lock_wait_seconds_bucket"]),
    ).toEqual(["orderbot_not_a_metric_total"]);
  });
});

describe("Grafana dashboard", () => {
  const dir = mkdtemp(path.join(os.tmpdir(), "orderbot-dashboard-"));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it("every query is valid PromQL (checked by promtool as recording rules)", async () => {
    // Grafana's template variables become what they expand to.
    const expressions = queries
      .filter((q) => !q.startsWith("label_values("))
      .map((q) => q.replaceAll("$kind", ".*").replaceAll("$__rate_interval", "5m"));
    const file = path.join(await dir, "dashboard-rules.yml");
    const body = expressions
      .map(
        (expr, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(expr)}`,
      )
      .join("\n");
    await writeFile(file, `groups:\n  - name: dashboard\n    rules:\n${body}\n`);
    const result = await run(tool("promtool"), ["check", "rules", file]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`SUCCESS: ${expressions.length} rules found`);
  });

  it("is provisioned from the directory compose mounts, against the provisioned datasource", async () => {
    const provider = await readFile(
      path.join(DOCKER_DIR, "grafana/provisioning/dashboards/orderbot.yml"),
      "utf8",
    );
    const datasource = await readFile(
      path.join(DOCKER_DIR, "grafana/provisioning/datasources/prometheus.yml"),
      "utf8",
    );
    const services = await readFile(path.join(DOCKER_DIR, "services.yaml"), "utf8");
    expect(provider).toContain("path: /var/lib/grafana/dashboards");
    expect(services).toContain("./grafana/dashboards:/var/lib/grafana/dashboards:ro");
    const uid = /uid:\s*(\S+)/.exec(datasource)?.[1];
    const used = new Set(
      JSON.stringify(dashboard)
        .match(/"uid":\s*"([^"]+)"/g)
        ?.map((m) => m.split('"')[3]),
    );
    expect(used).toContain(uid);
    expect(
      [...used].filter((u) => u !== uid && u !== "-- Grafana --" && u !== dashboard.uid),
    ).toEqual([]);
  });
});
