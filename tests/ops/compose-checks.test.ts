// The checks compose.test.ts runs on the rendered stacks, shown failing on broken fixtures: a
// setting that reaches no service, a retired one, an unused compose variable, a container
// without limits, healthcheck or log rotation.
import { describe, expect, it } from "vitest";
import { botConfigSchema } from "@orderbot/bot";
import { configSchemaDoc } from "@orderbot/platform";
import { workerConfigSchema } from "@orderbot/worker";
import { containerProblems } from "./support/container-rules.ts";
import { probeValue, settingProblems, unusedVariables } from "./support/settings-reach.ts";

const SCHEMAS = {
  bot: configSchemaDoc(botConfigSchema),
  worker: configSchemaDoc(workerConfigSchema),
};
const probe = probeValue;

describe("the settings checks fail on a broken fixture", () => {
  const bot = { environment: { BOT_TOKEN: "t", SHOP_TIME_ZONE: "UTC", LOG_LEVEL: "debug" } };
  const worker = { environment: { BOT_TOKEN: "t" } };

  it("names a setting that reaches no service, one overridden, and one no schema reads", () => {
    const settings = [
      { name: "BOT_TOKEN", value: "t" },
      { name: "SHOP_TIME_ZONE", value: "UTC" },
      { name: "LOG_LEVEL", value: "info" },
      { name: "SHOP_TIMEZONE", value: "UTC" },
    ];
    expect(settingProblems(settings, { bot, worker }, SCHEMAS)).toEqual([
      "SHOP_TIME_ZONE: does not reach worker",
      "LOG_LEVEL: reaches bot as something else than the file says",
      "LOG_LEVEL: does not reach worker",
      "SHOP_TIMEZONE: no service's schema reads it",
    ]);
  });

  it("names a retired setting", () => {
    const problems = settingProblems(
      [{ name: "PAYMENT_CURRENCY", value: "XTR" }],
      { bot: { environment: { PAYMENT_CURRENCY: "XTR" } } },
      SCHEMAS,
    );
    expect(problems).toEqual([expect.stringMatching(/^PAYMENT_CURRENCY: retired/)]);
  });

  it("names a compose variable that no rendered stack contains", () => {
    const settings = [{ name: "GRAFANA_ADMIN_PASSWORD", value: "" }];
    expect(unusedVariables(settings, ["image: x"])).toEqual([
      "GRAFANA_ADMIN_PASSWORD: no service of any compose file uses it",
    ]);
    expect(unusedVariables(settings, [`password: ${probe("GRAFANA_ADMIN_PASSWORD")}`])).toEqual([]);
  });
});

describe("the container check fails on a broken fixture", () => {
  it("the check names each rule a container breaks (fixture)", () => {
    const logging = { driver: "json-file", options: { "max-size": "20m" } };
    const limits = { deploy: { resources: { limits: { cpus: 1, memory: "64M" } } } };
    const hardened = { cap_drop: ["ALL"], security_opt: ["no-new-privileges:true"] };
    const base = { ...limits, ...hardened, pids_limit: 50 };
    expect(
      containerProblems({
        bare: {},
        unrotated: { ...base, healthcheck: { test: ["CMD", "true"] } },
        "one-off": { ...base, restart: "no", logging },
        disabled: { ...base, healthcheck: { disable: true }, logging },
        "with-privileges": { ...limits, pids_limit: 50, restart: "no", logging, cap_drop: [] },
      }),
    ).toEqual([
      "bare: no memory limit",
      "bare: no CPU limit",
      "bare: no process limit",
      "bare: no healthcheck",
      "bare: no log rotation",
      "bare: capabilities not dropped",
      "bare: may gain privileges",
      "unrotated: no log rotation",
      "disabled: no healthcheck",
      "with-privileges: capabilities not dropped",
      "with-privileges: may gain privileges",
    ]);
  });
});
