// npm run chaos [-- --quick] [-- --only "restart Redis"]: every scenario against real processes,
// a live progress line, then the table. Exits 1 when any invariant failed in any scenario.
import { runChaosSuite } from "./suite.ts";
import { formatTable } from "./table.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args.flatMap((arg, i) => (arg === "--only" && args[i + 1] ? [args[i + 1]!] : []));

const controller = new AbortController();
process.once("SIGINT", () => {
  process.stderr.write("\nchaos: stopping after the current scenario (Ctrl-C again to abort)\n");
  controller.abort();
  process.once("SIGINT", () => process.exit(130));
});

try {
  const suite = await runChaosSuite({ quick, only, signal: controller.signal });
  process.stdout.write(`\n${formatTable(suite.results)}\n\n`);
  for (const result of suite.results) {
    for (const note of result.notes) process.stdout.write(`  ${result.name}: ${note}\n`);
  }
  const verdict = suite.ok
    ? "every invariant held in every scenario"
    : "INVARIANTS VIOLATED (see above)";
  process.stdout.write(
    `\nchaos ${quick ? "--quick" : "(full)"}: ${suite.results.length} scenarios in ${suite.seconds.toFixed(0)} s; ${verdict}\n`,
  );
  process.exitCode = suite.ok ? 0 : 1;
} catch (error) {
  process.stderr.write(
    `chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
}
