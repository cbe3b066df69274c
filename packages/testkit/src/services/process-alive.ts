/**
 * Whether a process still runs, by signal 0. Only "no such process" counts as gone: a process of
 * another user answers EPERM, and what it owns (a database, a folder) is not ours to remove.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
