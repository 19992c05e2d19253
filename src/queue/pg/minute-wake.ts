import type { PgBoss } from "pg-boss";

/** pg-boss's queue for the minute wake-up: its cron sends one job to it per minute for the whole cluster. */
const MINUTE = "patchgate-minute";

/**
 * pg-boss's cron in its smallest use: every worker declares the same schedule (by name, so the last
 * declaration stands and there is one); the cron pass runs on whichever instance claims it, and
 * sends one job per minute however many instances run; one worker takes that job and runs
 * `onMinute`. A wake-up only: what `onMinute` does must itself be safe to run twice or not at all
 * (a minute whose worker died is not sent again; the next minute's is). Its failures are the
 * caller's to log: the job never retries.
 */
export async function wakeEveryMinute(boss: PgBoss, onMinute: () => Promise<void>): Promise<void> {
  // Every worker creates it; the first one wins and the rest find it there.
  await boss.createQueue(MINUTE, { retryLimit: 0, expireInSeconds: 300 }).catch(() => undefined);
  await boss.schedule(MINUTE, "* * * * *", null, { tz: "UTC" });
  await boss.work(MINUTE, { pollingIntervalSeconds: 1 }, async () => onMinute());
}

/** pg-boss's options for a process that runs its cron pass (`schedule`), or none. */
export function cronOptions(on: boolean): { schedule: boolean; cronMonitorIntervalSeconds?: number } {
  // Its default checks every 30 s; each check is one small update, and a due minute fires within 10 s.
  return on ? { schedule: true, cronMonitorIntervalSeconds: 10 } : { schedule: false };
}
