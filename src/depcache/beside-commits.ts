/**
 * Every dependency-cache commit this process runs beside a session, by the workspace it was taken
 * from. A session that parks goes on without waiting for its commit (the next resume may follow at
 * once, writes approved in advance). Until it ends, the commit may read the workspace's files through
 * links, so a resume whose sandbox may write into a file in place waits for it first; and a process
 * waits for every one before it ends: a commit cut off leaves no entry, only a later miss.
 */
const inFlight = new Map<Promise<void>, string>();

export function trackBesideCommit(done: Promise<void>, workspace: string): void {
  inFlight.set(done, workspace);
  void done.finally(() => inFlight.delete(done));
}

/** Resolves once every commit started beside a session in this process (of `workspace`, when given) has ended. */
export async function besideCommitsSettled(workspace?: string): Promise<void> {
  const of = () => [...inFlight].filter(([, ws]) => workspace === undefined || ws === workspace).map(([p]) => p);
  for (let left = of(); left.length > 0; left = of()) await Promise.all(left);
}
