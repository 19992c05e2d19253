import { join } from "node:path";
import { checkDisk, DEFAULT_MIN_FREE_BYTES, diskLowText, diskVerdict, statfsFree } from "../../src/workspace/disk-guard.js";

const GIB = 2 ** 30;

test("diskVerdict: refused below the threshold, allowed at or above it, never with the guard off", () => {
  expect(diskVerdict(1.5 * GIB, 2 * GIB)).toEqual({ ok: false, freeBytes: 1.5 * GIB, minBytes: 2 * GIB });
  expect(diskVerdict(2 * GIB, 2 * GIB)).toEqual({ ok: true });
  expect(diskVerdict(0, 0)).toEqual({ ok: true });
  expect(DEFAULT_MIN_FREE_BYTES).toBe(2 * GIB);
});

test("the refusal names amounts and the setting, and no path", () => {
  const text = diskLowText({ ok: false, freeBytes: 1.25 * GIB, minBytes: 2 * GIB });
  expect(text).toContain("1.3 GiB free, less than the 2.0 GiB");
  expect(text).toContain("`PATCHGATE_MIN_FREE_DISK_GB`");
  expect(text).toContain("Sessions already running go on.");
  expect(text).not.toMatch(/\/(tmp|home|data|var|root)\b/);
});

test("checkDisk asks the injected reader about the directory; a failing reader lets the session start", async () => {
  const asked: string[] = [];
  const reader = async (dir: string) => (asked.push(dir), 1 * GIB);
  expect(await checkDisk("/data/workspaces", 2 * GIB, reader)).toEqual({ ok: false, freeBytes: GIB, minBytes: 2 * GIB });
  expect(await checkDisk("/data/workspaces", 0.5 * GIB, reader)).toEqual({ ok: true });
  expect(asked).toEqual(["/data/workspaces", "/data/workspaces"]);
  expect(
    await checkDisk("/data/workspaces", 0, async () => {
      throw new Error("never asked");
    }),
  ).toEqual({ ok: true });
  const logged: string[] = [];
  expect(
    await checkDisk(
      "/x",
      GIB,
      async () => {
        throw new Error("EIO");
      },
      (l) => logged.push(l),
    ),
  ).toEqual({ ok: true });
  expect(logged).toEqual(["disk guard: free space not readable (EIO); the session starts"]);
});

test("statfsFree reads the nearest existing parent of a directory not made yet", async () => {
  expect(await statfsFree(join(import.meta.dirname, "not", "made", "yet"))).toBeGreaterThan(0);
});
