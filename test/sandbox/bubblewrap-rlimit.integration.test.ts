import { execFile } from "node:child_process";
import { chownSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SANDBOX_FORMS, tempWorkspace } from "./sandbox-fixture.js";

const run = promisify(execFile);
const NOBODY = 65534;

/**
 * As root, the other tests exercise the pids-cgroup path (the kernel ignores RLIMIT_NPROC for host
 * root). Patchgate normally runs as an ordinary user, where prlimit's RLIMIT_NPROC is the limit;
 * this test runs the real sandbox as such a user (dropping to `nobody` when the test runs as root).
 */
describe("bubblewrap as a non-root user: RLIMIT_NPROC, counted per sandbox", () => {
  const ws = tempWorkspace();
  afterAll(() => ws.cleanup());

  test.each(SANDBOX_FORMS)("%s: two concurrent sandboxes each stop just short of their own limit of 20", async (form) => {
    const probe = fileURLToPath(new URL("./fixtures/nproc-probe.ts", import.meta.url));
    const node = [process.execPath, "--import", "tsx", probe, ws.dir, form];
    let argv = node;
    if (process.getuid?.() === 0) {
      chownSync(ws.dir, NOBODY, NOBODY);
      argv = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "env", "-i", "PATH=/usr/bin:/bin", "HOME=/tmp", ...node];
    }
    const { stdout } = await run(argv[0], argv.slice(1), { cwd: process.cwd(), timeout: 60_000 });
    const report = JSON.parse(stdout) as { uid: number; runs: { exitCode: number; started: number; stderr: string }[] };
    expect(report.uid).not.toBe(0);
    // bwrap's init and the shell are the other two processes of each sandbox's 20.
    expect(report.runs).toEqual([
      { exitCode: 2, started: 18, stderr: "/bin/sh: 0: Cannot fork\n" },
      { exitCode: 2, started: 18, stderr: "/bin/sh: 0: Cannot fork\n" },
    ]);
  });
});
