// Makes a race certain: racers that read first and write after all read before any writes.

/**
 * Resolves once `n` callers wait on it.
 *
 * @example
 * const allRead = barrier(racers.length);
 * await Promise.all(racers.map(async (db) => { const seen = await read(db); await allRead(); await write(db, seen); }));
 */
export function barrier(n: number): () => Promise<void> {
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  return () => {
    if (++waiting === n) open();
    return all;
  };
}
