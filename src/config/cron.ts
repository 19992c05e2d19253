/**
 * Five-field cron (`minute hour day-of-month month day-of-week`), in UTC: numbers, `*`, ranges `a-b`,
 * steps `a-b/n` (and `*` with a step), lists `a,b`. Day-of-week 0–7, both 0 and 7 meaning Sunday. As in classic
 * cron, when both day fields are restricted a day matching either one fires. No names, no seconds,
 * no `L`/`W`/`#`: a schedule in a repository's file should read the same to every maintainer.
 */
export interface Cron {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Whether the day-of-month and day-of-week fields were `*` (then only the other one restricts). */
  anyDay: boolean;
  anyWeekday: boolean;
}

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
] as const;

/** How far ahead a schedule is looked for: a cron that names no real day in this span never fires. */
const SEARCH_DAYS = 366 * 5;

/** The parsed cron, or a one-line reason it is not one. */
export function parseCron(text: string): Cron | string {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 5) return `5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`;
  const sets: Set<number>[] = [];
  for (let i = 0; i < 5; i++) {
    const set = parseField(parts[i], FIELDS[i].min, FIELDS[i].max);
    if (typeof set === "string") return `${FIELDS[i].name} \`${parts[i]}\`: ${set}`;
    sets.push(set);
  }
  const weekdays = new Set([...sets[4]].map((d) => d % 7));
  const cron: Cron = { minutes: sets[0], hours: sets[1], days: sets[2], months: sets[3], weekdays, anyDay: parts[2] === "*", anyWeekday: parts[4] === "*" };
  if (nextAfter(cron, new Date(Date.UTC(2000, 0, 1))) === null) return "it names no day that exists";
  return cron;
}

function parseField(field: string, min: number, max: number): Set<number> | string {
  const out = new Set<number>();
  for (const item of field.split(",")) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!m) return "not a number, `*`, a range `a-b` or a step `/n`";
    const from = m[1] === "*" ? min : Number(m[2]);
    const to = m[1] === "*" ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to) return `out of range ${min}-${max}`;
    if (step < 1) return "a step must be at least 1";
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

function dayMatches(c: Cron, d: Date): boolean {
  const dom = c.days.has(d.getUTCDate());
  const dow = c.weekdays.has(d.getUTCDay());
  if (c.anyDay) return dow;
  if (c.anyWeekday) return dom;
  return dom || dow;
}

/** The first minute strictly after `t` at which `c` fires, or null when none comes within five years. */
export function nextAfter(c: Cron, t: Date): Date | null {
  const d = new Date(Math.floor(t.getTime() / 60_000) * 60_000 + 60_000);
  const limit = t.getTime() + SEARCH_DAYS * 86_400_000;
  while (d.getTime() <= limit) {
    if (!c.months.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1);
      d.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(c, d)) {
      d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(0, 0, 0, 0);
    } else if (!c.hours.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0);
    } else if (!c.minutes.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0);
    } else return d;
  }
  return null;
}

/**
 * The last minute in (`after`, `now`] at which `c` fires, or null when none: a schedule that missed
 * several times while nothing ran fires once, for the latest of them.
 */
export function latestDue(c: Cron, after: Date, now: Date): Date | null {
  let last: Date | null = null;
  for (let t = nextAfter(c, after); t !== null && t.getTime() <= now.getTime(); t = nextAfter(c, t)) last = t;
  return last;
}
