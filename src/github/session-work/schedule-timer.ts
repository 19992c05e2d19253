import type { AppLog } from "../app-log.js";
import type { PatchgateDeps } from "../deps.js";

/** Cron's unit: a pass just after each minute starts sees every due time of that minute. */
const MINUTE_MS = 60_000;

/**
 * The schedules' clock for a running app: the wall clock, a pass at once (a firing missed while the
 * app was down runs now) and then just after each minute. Passes never overlap; a failed pass is
 * logged and the next one tries again. The timer never keeps the process alive.
 */
export function wallClockSchedules(log: AppLog): NonNullable<PatchgateDeps["schedules"]> {
  return {
    now: () => new Date(),
    every(pass) {
      const tick = async () => {
        try {
          await pass();
        } catch (e) {
          log(`schedules: ${e instanceof Error ? e.message : String(e)}`, "error");
        }
        setTimeout(() => void tick(), MINUTE_MS - (Date.now() % MINUTE_MS) + 1_000).unref();
      };
      void tick();
    },
  };
}
