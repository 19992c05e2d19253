import { diskGuardFromEnv, housekeepingFromEnv } from "../../../src/github/session-work/housekeeping-env.js";

const HOUR = 3_600_000;

test("retention: 72 h by default, hourly sweeps; a short retention sweeps more often, never under a minute", () => {
  expect(housekeepingFromEnv({})).toEqual({ retentionMs: 72 * HOUR, everyMs: HOUR });
  expect(housekeepingFromEnv({ PATCHGATE_WORKSPACE_RETENTION_HOURS: "0.25" })).toEqual({ retentionMs: HOUR / 4, everyMs: HOUR / 4 });
  expect(housekeepingFromEnv({ PATCHGATE_WORKSPACE_RETENTION_HOURS: "0" })).toEqual({ retentionMs: 0, everyMs: 60_000 });
});

test("the disk guard: 2 GiB by default, fractions allowed, 0 turns it off", () => {
  expect(diskGuardFromEnv({})).toEqual({ minFreeBytes: 2 * 2 ** 30 });
  expect(diskGuardFromEnv({ PATCHGATE_MIN_FREE_DISK_GB: "0.5" })).toEqual({ minFreeBytes: 2 ** 29 });
  expect(diskGuardFromEnv({ PATCHGATE_MIN_FREE_DISK_GB: "0" })).toBeNull();
});

test("a bad value stops the app, naming the variable", () => {
  expect(() => housekeepingFromEnv({ PATCHGATE_WORKSPACE_RETENTION_HOURS: "a week" })).toThrow(
    'PATCHGATE_WORKSPACE_RETENTION_HOURS must be a number of hours ≥ 0, not "a week"',
  );
  expect(() => diskGuardFromEnv({ PATCHGATE_MIN_FREE_DISK_GB: "-1" })).toThrow('PATCHGATE_MIN_FREE_DISK_GB must be a number of GiB ≥ 0, not "-1"');
});
