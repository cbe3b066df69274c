// The fake needs neither PostgreSQL nor Redis: the shared settings without their global set-up,
// so its suite runs on a machine that has neither.
import { defineProject } from "vitest/config";
import shared from "../../vitest.shared.ts";

const { globalSetup: _services, ...test } = shared.test ?? {};

export default defineProject({ test: { ...test, name: "fake-telegram" } });
