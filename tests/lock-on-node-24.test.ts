// The lock package copied out alone (packages/lock/scripts/standalone-check) passes its tests on
// Node 24, the active LTS and the Docker image's runtime. Only the lock runs on both runtimes: its
// promises rest on the runtime itself (timers, AbortSignal, the clock), where the other packages'
// rest on PostgreSQL and Redis. It is a test here, not a CI step of its own, so that it shares the
// machine with the other suites instead of running after them, and ends before the chaos suite.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const MAJOR = "24";
const execute = promisify(execFile);

/** Runs a command with Node MAJOR first on PATH; its output, or an error that carries it. */
async function onNode24(...command: string[]): Promise<string> {
  const options = {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1" },
  };
  try {
    return (await execute(path.join(ROOT, "scripts/with-node"), [MAJOR, "--", ...command], options))
      .stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command.join(" ")} failed:\n${`${stdout}\n${stderr}`.slice(-8000)}`);
  }
}

it("the lock package, copied alone, passes its tests on Node 24", async () => {
  const version = (await onNode24("node", "--version")).trim();
  expect(version).toMatch(new RegExp(`^v${MAJOR}\\.`));
  const output = await onNode24("packages/lock/scripts/standalone-check", "--reporter=dot");
  const summary = output.split("\n").filter((line) => /^\s*(Test Files|Tests)\s/.test(line));
  console.log(`the lock package alone, on Node ${version}:\n${summary.join("\n")}`);
  expect(summary.join("\n")).toMatch(/Tests\s+\d+ passed/);
  expect(summary.join("\n")).not.toMatch(/failed|skipped/);
}, 300_000);
