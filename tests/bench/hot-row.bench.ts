// npm run bench -- hot-row: how long a hot product's row lock lasts decides a flash sale's rate.
// One product, 32 bare pg clients, each "order" one transaction that inserts a line and
// takes one unit, in interleaved rounds:
//   - decrement, then COMMIT: the shop's reservation today (the conditional UPDATE last, then the
//     COMMIT one round trip later: the row stays locked for that round trip);
//   - deferred trigger: the line's insert queues a DEFERRABLE INITIALLY DEFERRED constraint trigger
//     that runs the same conditional UPDATE inside COMMIT, so the row is locked only while the
//     commit runs; a shortfall raises, and the whole transaction rolls back;
//   - deferred trigger with a no-op statement in the decrement's place: the same round trips as
//     the first, so what is left is the row lock's length alone.
// `--client-ms M` (default 0) burns M ms of CPU in the client after every reply, as a busy
// client process (Prisma, the bot) does: the first design then holds the row that much longer,
// but the one client process's CPU also bounds every design (at 0.3 ms, 32 clients are bound by
// it). It measures a design candidate, not the shop: docs/benchmarks.md, One hot row.
import pg from "pg";
import { parseArgs } from "node:util";
import {
  createTestDatabase,
  environmentLine,
  formatRate,
  formatTable,
  markdownTable,
  packageVersion,
  prepareTemplateDatabase,
  writeSection,
} from "@orderbot/testkit";

const args = parseArgs({ options: { "client-ms": { type: "string" } } }).values;
const CLIENT_MS = Number(args["client-ms"] ?? 0);
if (!Number.isFinite(CLIENT_MS) || CLIENT_MS < 0) throw new Error("--client-ms must be >= 0");
const CLIENTS = 32;
const ROUNDS = 3;
const ROUND_MS = 2000;

const SCHEMA = `
CREATE SCHEMA hot_row;
CREATE TABLE hot_row.products (id int PRIMARY KEY, stock int NOT NULL CHECK (stock >= 0));
CREATE TABLE hot_row.lines (id bigserial PRIMARY KEY, product_id int NOT NULL, quantity int NOT NULL);
CREATE TABLE hot_row.deferred_lines (LIKE hot_row.lines INCLUDING ALL);
CREATE FUNCTION hot_row.take_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE hot_row.products SET stock = stock - NEW.quantity
   WHERE id = NEW.product_id AND stock >= NEW.quantity;
  IF NOT FOUND THEN RAISE EXCEPTION 'not enough stock of product %', NEW.product_id; END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER take_stock AFTER INSERT ON hot_row.deferred_lines
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hot_row.take_stock();`;

const DESIGNS: Record<string, string[]> = {
  "decrement, then COMMIT (the shop today)": [
    "BEGIN",
    "INSERT INTO hot_row.lines (product_id, quantity) VALUES (1, 1)",
    "UPDATE hot_row.products SET stock = stock - 1 WHERE id = 1 AND stock >= 1",
    "COMMIT",
  ],
  "deferred trigger, decrement inside COMMIT": [
    "BEGIN",
    "INSERT INTO hot_row.deferred_lines (product_id, quantity) VALUES (1, 1)",
    "COMMIT",
  ],
  "deferred trigger, a no-op in the decrement's place": [
    "BEGIN",
    "INSERT INTO hot_row.deferred_lines (product_id, quantity) VALUES (1, 1)",
    "SELECT 1",
    "COMMIT",
  ],
};

/** The client's own work after each reply: CPU it burns, as a busy process would. */
function clientWork(): void {
  const until = performance.now() + CLIENT_MS;
  while (performance.now() < until);
}

/** Orders per second of one design over one round, every client ordering in a loop. */
async function round(clients: pg.Client[], statements: string[]): Promise<number> {
  let orders = 0;
  const stopAt = performance.now() + ROUND_MS;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < stopAt) {
        for (const sql of statements) {
          await client.query(sql);
          clientWork();
        }
        orders += 1;
      }
    }),
  );
  return orders / (ROUND_MS / 1000);
}

await prepareTemplateDatabase();
const testDb = await createTestDatabase();
const clients = Array.from({ length: CLIENTS }, () => new pg.Client(testDb.url));
try {
  await Promise.all(clients.map((client) => client.connect()));
  const [first] = clients as [pg.Client];
  await first.query(SCHEMA);
  await first.query("INSERT INTO hot_row.products VALUES (1, 1000000000)");
  const rates = new Map(Object.keys(DESIGNS).map((name) => [name, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, statements] of Object.entries(DESIGNS))
      rates.get(name)!.push(await round(clients, statements));
  const { rows } = await first.query<{ stock: number; lines: number }>(
    `SELECT stock, (SELECT count(*) FROM hot_row.lines) + (SELECT count(*) FROM hot_row.deferred_lines) AS lines
       FROM hot_row.products`,
  );
  // Every line took exactly one unit, whichever design inserted it.
  if (Number(rows[0]!.stock) + Number(rows[0]!.lines) !== 1_000_000_000)
    throw new Error(`stock and lines disagree: ${JSON.stringify(rows[0])}`);

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const today = median(rates.get(Object.keys(DESIGNS)[0]!)!);
  const header = ["design", "orders (median of rounds)", "rounds", "vs the shop today"];
  const table = [...rates].map(([name, xs]) => [
    name,
    formatRate(median(xs)),
    xs.map((x) => formatRate(x)).join(", "),
    `${(median(xs) / today).toFixed(2)}x`,
  ]);
  console.log(`\n${formatTable(header, table)}\n`);
  writeSection(
    "hot-row",
    [
      "## One hot row: decrement then COMMIT, or inside COMMIT (`npm run bench -- hot-row`)",
      "",
      environmentLine({ pg: packageVersion("pg") }),
      "",
      `${CLIENTS} bare pg clients, one product, one unit per order; ${ROUNDS} interleaved rounds of`,
      `${ROUND_MS} ms per design; after every reply the client burns ${CLIENT_MS} ms of CPU (\`--client-ms\`), as a`,
      "busy client process does. A design candidate for the reservation, not the shop: see the header of",
      "tests/bench/hot-row.bench.ts. After the run, stock plus lines must equal the starting stock.",
      "",
      markdownTable(header, table),
    ].join("\n"),
  );
} finally {
  await Promise.all(clients.map((client) => client.end()));
  await testDb.drop();
}
