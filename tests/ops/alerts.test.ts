// docker/prometheus: the scrape config and alert rules load, every alert's unit tests pass, and
// every alert is tested both ways (fires on a synthetic series, quiet on a healthy one) and has a
// runbook entry in docs/operations.md.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@orderbot/testkit";
import { DOCKER_DIR, run, tool } from "./support/tools.ts";

const PROMETHEUS_DIR = path.join(DOCKER_DIR, "prometheus");
const rules = await readFile(path.join(PROMETHEUS_DIR, "alerts.yml"), "utf8");
const ruleTests = await readFile(path.join(PROMETHEUS_DIR, "alerts.test.yml"), "utf8");
const operations = await readFile(path.join(PROJECT_ROOT, "docs/operations.md"), "utf8");

/** Each alert's block of alerts.yml, by name. */
const alerts = new Map(
  rules
    .split(/^\s*- alert:\s*/m)
    .slice(1)
    .map((block) => [block.slice(0, block.indexOf("\n")).trim(), block] as const),
);

/** Each `alert_rule_test` entry: which alert, and whether it expects alerts or none. */
const expectations = ruleTests
  .split(/^\s*- eval_time:/m)
  .slice(1)
  .map((entry) => ({
    alert: /alertname:\s*(\w+)/.exec(entry)?.[1],
    fires: !/exp_alerts:\s*\[\]/.test(entry),
  }));

describe("Prometheus configuration", () => {
  it("the scrape configuration and the rule file it loads are valid", async () => {
    const result = await run(tool("promtool"), ["check", "config", "prometheus.yml"], {
      cwd: PROMETHEUS_DIR,
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`SUCCESS: ${alerts.size} rules found`);
  });

  it("promtool check rules accepts alerts.yml", async () => {
    const result = await run(tool("promtool"), ["check", "rules", "alerts.yml"], {
      cwd: PROMETHEUS_DIR,
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(alerts.size).toBeGreaterThanOrEqual(9);
  });

  it("promtool test rules passes every alert unit test", async () => {
    const result = await run(tool("promtool"), ["test", "rules", "alerts.test.yml"], {
      cwd: PROMETHEUS_DIR,
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("SUCCESS");
  });
});

describe("Alertmanager configuration", () => {
  it("start.sh renders a configuration amtool accepts, with a Telegram receiver to the chat", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-alertmanager-"));
    const config = path.join(dir, "alertmanager.yml");
    try {
      const render = await run(path.join(DOCKER_DIR, "alertmanager/start.sh"), ["render"], {
        env: {
          PATH: process.env.PATH,
          ALERTMANAGER_CONFIG: config,
          ALERT_TELEGRAM_BOT_TOKEN: "123456:alert-bot-token_0123",
          ALERT_TELEGRAM_CHAT_ID: "-1001234567890",
        },
      });
      expect(render.code, render.stderr).toBe(0);
      const check = await run(tool("amtool"), ["check-config", config]);
      expect(check.code, check.stdout + check.stderr).toBe(0);
      const rendered = await readFile(config, "utf8");
      expect(rendered).toContain('bot_token: "123456:alert-bot-token_0123"');
      expect(rendered).toContain("chat_id: -1001234567890");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("start.sh refuses a chat id that is not a number, naming the setting", async () => {
    const render = await run(path.join(DOCKER_DIR, "alertmanager/start.sh"), ["render"], {
      env: {
        PATH: process.env.PATH,
        ALERTMANAGER_CONFIG: "/dev/null",
        ALERT_TELEGRAM_BOT_TOKEN: "123456:alert-bot-token_0123",
        ALERT_TELEGRAM_CHAT_ID: "@owners",
      },
    });
    expect(render.code).not.toBe(0);
    expect(render.stderr).toContain("ALERT_TELEGRAM_CHAT_ID must be a numeric chat id");
  });

  it("Prometheus sends its alerts to Alertmanager", async () => {
    const config = await readFile(path.join(PROMETHEUS_DIR, "prometheus.yml"), "utf8");
    expect(config).toMatch(/alerting:\n\s+alertmanagers:\n[\s\S]*"alertmanager:9093"/);
  });
});

describe("alert rules", () => {
  it("cover the signals operations asked for", () => {
    for (const name of [
      "OrderbotLockAcquireFailures",
      "OrderbotLockWaitP99High",
      "OrderbotLockHoldNearTtl",
      "OrderbotLockRenewalFailures",
      "OrderbotLockLeaseLost",
      "OrderbotLockReleaseNotOwner",
      "OrderbotRedisLatencyHigh",
      "OrderbotOutboxBacklogOld",
      "OrderbotOutboxDeadLetters",
      "OrderbotRefundPendingTooLong",
      "OrderbotBackupTooOld",
      "OrderbotPostgresDown",
      "OrderbotRedisDown",
      "OrderbotDiskFilling",
      "OrderbotCertificateExpiring",
    ]) {
      expect([...alerts.keys()]).toContain(name);
    }
  });

  it.each([...alerts.keys()])(
    "%s fires on a synthetic series and stays quiet on a healthy one",
    (name) => {
      const mine = expectations.filter((e) => e.alert === name);
      expect(
        mine.some((e) => e.fires),
        `${name} has no test where it fires`,
      ).toBe(true);
      expect(
        mine.some((e) => !e.fires),
        `${name} has no test where it stays quiet`,
      ).toBe(true);
    },
  );

  it.each([...alerts.keys()])(
    "%s has a severity and a runbook entry in docs/operations.md",
    (name) => {
      const block = alerts.get(name)!;
      expect(block).toMatch(/severity: (warning|critical)\n/);
      expect(block).toContain(`runbook_url: docs/operations.md#${name.toLowerCase()}\n`);
      expect(operations).toMatch(new RegExp(`^#+ ${name}$`, "m"));
    },
  );
});
