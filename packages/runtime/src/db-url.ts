/**
 * The database URL with server-side session settings added (libpq's `options`), e.g.
 * idle_in_transaction_session_timeout: PostgreSQL then ends a session that holds a transaction
 * open and idle, releasing its row locks, whatever happened to the client.
 */
export function withSessionSettings(
  url: string,
  settings: Record<string, string | number>,
): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return url;
  const parsed = new URL(url);
  const extra = entries.map(([name, value]) => `-c ${name}=${value}`).join(" ");
  const existing = parsed.searchParams.get("options");
  parsed.searchParams.set("options", existing ? `${existing} ${extra}` : extra);
  return parsed.toString();
}
