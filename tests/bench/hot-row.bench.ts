// npm run bench -- hot-row: how long a hot product's row lock lasts decides a flash sale's rate.
// One product, bare pg clients, each "order" a line inserted and one unit taken, in interleaved
// rounds of the options issue #23 names:
//   - decrement, then COMMIT: the shop's reservation until 2026-12-04 (the conditional UPDATE last,
//     then the COMMIT one round trip later: the row stays locked for that round trip);
//   - deferred trigger: the line's insert queues a DEFERRABLE INITIALLY DEFERRED constraint trigger
//     that runs the same conditional UPDATE inside COMMIT, so the row is locked only while the
//     commit runs; a shortfall raises, and the whole transaction rolls back (the shop's design);
//   - deferred trigger with a no-op statement in the decrement's place: the same round trips as
//     the first, so what is left is the row lock's length alone;
//   - group commit: GROUP orders in one transaction and one decrement of GROUP units, by
//     CLIENTS / GROUP clients (one process gathering its concurrent reservations);
//   - buckets: the product's stock split over BUCKETS rows, each order taking its unit from one at
//     random through the deferred trigger, so that orders queue on BUCKETS rows instead of one.
// `--client-ms M` (default 0) burns M ms of CPU in the client after every reply, as a busy
// client process (Prisma, the bot) does: the first design then holds the row that much longer,
// but the one client process's CPU also bounds every design (at 0.3 ms, 32 clients are bound by
// it). It measures design candidates, not the shop: docs/benchmarks.md, The hot row.
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
  closedLoop,
  interleave,
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
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hot_row.take_stock();
CREATE TABLE hot_row.buckets (product_id int, bucket int, stock int NOT NULL CHECK (stock >= 0),
                              PRIMARY KEY (product_id, bucket));
CREATE TABLE hot_row.bucket_lines (LIKE hot_row.lines INCLUDING ALL, bucket int NOT NULL);
CREATE FUNCTION hot_row.take_bucket_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE hot_row.buckets SET stock = stock - NEW.quantity
   WHERE product_id = NEW.product_id AND bucket = NEW.bucket AND stock >= NEW.quantity;
  IF NOT FOUND THEN RAISE EXCEPTION 'not enough stock of product %', NEW.product_id; END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER take_bucket_stock AFTER INSERT ON hot_row.bucket_lines
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hot_row.take_bucket_stock();`;

const STOCK = 1_000_000_000;
/** Orders per transaction of the group-commit design. */
const GROUP = 8;
/** Rows the bucket design splits the stock over. */
const BUCKETS = 8;

interface Design {
  /** The clients that order at once: fewer when each transaction carries several orders. */
  clients: number;
  /** Orders one run of `statements` places. */
  orders: number;
  /** One transaction's statements (a function: the bucket design picks its bucket each time). */
  statements: () => string[];
}

const DESIGNS: Record<string, Design> = {
  "decrement, then COMMIT (the shop until 2026-12-04)": {
    clients: CLIENTS,
    orders: 1,
    statements: () => [
      "BEGIN",
      "INSERT INTO hot_row.lines (product_id, quantity) VALUES (1, 1)",
      "UPDATE hot_row.products SET stock = stock - 1 WHERE id = 1 AND stock >= 1",
      "COMMIT",
    ],
  },
  "deferred trigger, decrement inside COMMIT (the shop)": {
    clients: CLIENTS,
    orders: 1,
    statements: () => [
      "BEGIN",
      "INSERT INTO hot_row.deferred_lines (product_id, quantity) VALUES (1, 1)",
      "COMMIT",
    ],
  },
  "deferred trigger, a no-op in the decrement's place": {
    clients: CLIENTS,
    orders: 1,
    statements: () => [
      "BEGIN",
      "INSERT INTO hot_row.deferred_lines (product_id, quantity) VALUES (1, 1)",
      "SELECT 1",
      "COMMIT",
    ],
  },
  [`group commit: ${GROUP} orders per transaction, one decrement`]: {
    clients: CLIENTS / GROUP,
    orders: GROUP,
    statements: () => [
      "BEGIN",
      `INSERT INTO hot_row.lines (product_id, quantity) SELECT 1, 1 FROM generate_series(1, ${GROUP})`,
      `UPDATE hot_row.products SET stock = stock - ${GROUP} WHERE id = 1 AND stock >= ${GROUP}`,
      "COMMIT",
    ],
  },
  [`buckets: stock over ${BUCKETS} rows, deferred trigger`]: {
    clients: CLIENTS,
    orders: 1,
    statements: () => [
      "BEGIN",
      `INSERT INTO hot_row.bucket_lines (product_id, quantity, bucket) VALUES (1, 1, ${Math.floor(Math.random() * BUCKETS)})`,
      "COMMIT",
    ],
  },
};

/** The client's own work after each reply: CPU it burns, as a busy process would. */
function clientWork(): void {
  const until = performance.now() + CLIENT_MS;
  while (performance.now() < until);
}

/** Orders per second of one design over one round, each of its clients ordering in a loop. */
async function round(clients: pg.Client[], design: Design): Promise<number> {
  let orders = 0;
  await closedLoop({ clients: design.clients, ms: ROUND_MS }, async (client) => {
    for (const sql of design.statements()) {
      await clients[client]!.query(sql);
      clientWork();
    }
    orders += design.orders;
  });
  return orders / (ROUND_MS / 1000);
}

await prepareTemplateDatabase();
const testDb = await createTestDatabase();
const clients = Array.from({ length: CLIENTS }, () => new pg.Client(testDb.url));
try {
  await Promise.all(clients.map((client) => client.connect()));
  const [first] = clients as [pg.Client];
  await first.query(SCHEMA);
  await first.query(`INSERT INTO hot_row.products VALUES (1, ${STOCK})`);
  await first.query(
    `INSERT INTO hot_row.buckets SELECT 1, b, ${STOCK / BUCKETS} FROM generate_series(0, ${BUCKETS - 1}) b`,
  );
  const rates = new Map(Object.keys(DESIGNS).map((name) => [name, [] as number[]]));
  await interleave(Object.entries(DESIGNS), ROUNDS, async ([name, design]) => {
    rates.get(name)!.push(await round(clients, design));
  });
  const { rows } = await first.query<{ stock: string; lines: string }>(
    `SELECT (SELECT stock FROM hot_row.products) + (SELECT sum(stock) FROM hot_row.buckets) AS stock,
            (SELECT count(*) FROM hot_row.lines) + (SELECT count(*) FROM hot_row.deferred_lines)
              + (SELECT count(*) FROM hot_row.bucket_lines) AS lines`,
  );
  // Every line took exactly one unit, whichever design inserted it.
  if (Number(rows[0]!.stock) + Number(rows[0]!.lines) !== 2 * STOCK)
    throw new Error(`stock and lines disagree: ${JSON.stringify(rows[0])}`);

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const before = median(rates.get(Object.keys(DESIGNS)[0]!)!);
  const header = ["design", "orders (median of rounds)", "rounds", "vs decrement, then COMMIT"];
  const table = [...rates].map(([name, xs]) => [
    name,
    formatRate(median(xs)),
    xs.map((x) => formatRate(x)).join(", "),
    `${(median(xs) / before).toFixed(2)}x`,
  ]);
  console.log(`\n${formatTable(header, table)}\n`);
  writeSection(
    "hot-row",
    [
      "## One hot row: the options side by side (`npm run bench -- hot-row`)",
      "",
      environmentLine({ pg: packageVersion("pg") }),
      "",
      `${CLIENTS} bare pg clients (${CLIENTS / GROUP} for group commit), one product, one unit per order; ${ROUNDS} interleaved rounds of`,
      `${ROUND_MS} ms per design; after every reply the client burns ${CLIENT_MS} ms of CPU (\`--client-ms\`), as a`,
      "busy client process does. The options measured bare, not through the shop: see the header of",
      "tests/bench/hot-row.bench.ts. After the run, stock plus lines must equal the starting stock.",
      "",
      markdownTable(header, table),
    ].join("\n"),
  );
} finally {
  await Promise.all(clients.map((client) => client.end()));
  await testDb.drop();
}
