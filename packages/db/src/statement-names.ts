/** Distinct statements a pool prepares at most; past it, a new text runs unnamed, as before. */
export const MAX_NAMED_STATEMENTS = 500;

/**
 * Names every distinct SQL text a pool sends (`s0`, `s1`, ...), for adapter-pg's
 * `statementNameGenerator`: node-postgres then sends a text's Parse once per connection and only
 * Bind/Execute after that, and PostgreSQL keeps its parse tree and, once a generic plan is as
 * cheap as a custom one, the plan. Prisma's default sends every statement unnamed, parsed and
 * planned anew each time. Measured in one bench:orders run, the shop's design beside itself without
 * names (docs/database.md, "Statements prepared once per connection"): PostgreSQL's CPU per order
 * fell from 1.22 to 0.80 ms spread and from 1.30 to 0.88 ms on one hot sku.
 *
 * The names are this pool's own (a connection belongs to one pool, and the name space is a
 * connection's), so a counter is enough. The texts are the app's own statements, a bounded set;
 * past MAX_NAMED_STATEMENTS (say, `IN` lists of every length) new texts run unnamed, so a
 * connection never holds more prepared statements than that.
 */
export function statementNames(max = MAX_NAMED_STATEMENTS): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name !== undefined) return name;
    if (names.size >= max) return ""; // node-postgres: no name, an unnamed statement
    name = `s${names.size}`;
    names.set(sql, name);
    return name;
  };
}
