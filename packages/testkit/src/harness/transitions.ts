import type { Database } from "@orderbot/db";

/**
 * Records every order status change in a table of the test database (a trigger), so a test can
 * prove afterwards that only legal transitions happened, whoever made them.
 */
export async function recordTransitions(db: Database): Promise<void> {
  await db.$executeRawUnsafe(
    `CREATE TABLE IF NOT EXISTS test_order_transitions (order_id int, from_status text, to_status text)`,
  );
  await db.$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION test_record_transition() RETURNS trigger AS $$
    BEGIN
      INSERT INTO test_order_transitions VALUES (NEW.id, OLD.status::text, NEW.status::text);
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_order_transitions ON orders`);
  await db.$executeRawUnsafe(`
    CREATE TRIGGER test_order_transitions AFTER UPDATE OF status ON orders
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION test_record_transition()`);
}

/**
 * The recorded transitions that `legal` (core's LEGAL_TRANSITIONS, passed in: the testkit does
 * not depend on core) does not allow, as "FROM -> TO (count)".
 */
export async function illegalTransitions(
  db: Database,
  legal: Readonly<Record<string, readonly string[]>>,
): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ from_status: string; to_status: string; n: bigint }[]>(
    `SELECT from_status, to_status, count(*) AS n FROM test_order_transitions GROUP BY 1, 2`,
  );
  return rows
    .filter((r) => !legal[r.from_status]?.includes(r.to_status))
    .map((r) => `${r.from_status} -> ${r.to_status} (${r.n})`);
}
