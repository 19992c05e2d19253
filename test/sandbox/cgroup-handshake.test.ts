import { EventEmitter } from "node:events";
import type { ChildProcess } from "node:child_process";
import { PassThrough } from "node:stream";
import { joinCgroupThenRelease } from "../../src/sandbox/cgroup-handshake.js";
import type { PidsCgroup } from "../../src/sandbox/pids-cgroup.js";

// The real handshake runs in every bubblewrap test as root; these pin its order and failure paths
// with a stand-in for bwrap's two fds and a cgroup that records what it is asked. Pids are far above
// pid_max, so the kill on the failure path can never hit a real process.
const OUTER = 2_000_000_001;
const INNER = 2_000_000_002;

function fakeChild() {
  const info = new PassThrough();
  const block = new PassThrough();
  const child = Object.assign(new EventEmitter(), { pid: OUTER, stdio: [null, null, null, info, block] }) as unknown as ChildProcess;
  return { child, info, block };
}

/** `bornInside`: the clone came after bwrap was moved, so the kernel already put it in the cgroup. */
function fakeCgroup(opts: { bornInside?: boolean; adoptError?: string } = {}) {
  const adopted: number[] = [];
  const cgroup = {
    adopt: async (pid: number) => {
      if (opts.adoptError) throw Object.assign(new Error(opts.adoptError), { code: opts.adoptError.split(":")[0] });
      adopted.push(pid);
    },
    has: async (pid: number) => pid === INNER && opts.bornInside === true,
  } as unknown as PidsCgroup;
  return { cgroup, adopted };
}

const released = (s: PassThrough) => (s.read() as Buffer | null)?.toString() ?? "";

describe("joinCgroupThenRelease", () => {
  test("bwrap is moved at once; a child cloned before the move is moved too; then the sandbox is released", async () => {
    const { child, info, block } = fakeChild();
    const { cgroup, adopted } = fakeCgroup();
    const done = joinCgroupThenRelease(child, cgroup);
    info.write(`{\n    "child-pid": ${String(INNER).slice(0, 4)}`);
    info.write(`${String(INNER).slice(4)},\n    "ipc-namespace": 1\n}\n`);
    await done;
    expect({ adopted, released: released(block) }).toEqual({ adopted: [OUTER, INNER], released: "1" });
  });

  test("a child cloned after the move is already inside and is not moved again", async () => {
    const { child, info, block } = fakeChild();
    const { cgroup, adopted } = fakeCgroup({ bornInside: true });
    const done = joinCgroupThenRelease(child, cgroup);
    info.write(`{"child-pid": ${INNER}}`);
    await done;
    expect({ adopted, released: released(block) }).toEqual({ adopted: [OUTER], released: "1" });
  });

  test("bwrap exiting before it reports a child is not a handshake error (its exit status tells why)", async () => {
    const { child, info, block } = fakeChild();
    const { cgroup } = fakeCgroup({ adoptError: "ESRCH: no such process" });
    const done = joinCgroupThenRelease(child, cgroup);
    info.end();
    await expect(done).resolves.toBeUndefined();
    expect(released(block)).toBe("");
  });

  test("a cgroup that refuses the move fails the handshake and the sandbox is never released", async () => {
    const { child, info, block } = fakeChild();
    const { cgroup } = fakeCgroup({ adoptError: "EACCES: cgroup.procs" });
    const done = joinCgroupThenRelease(child, cgroup);
    info.write(`{"child-pid": ${INNER}}`);
    await expect(done).rejects.toThrow("EACCES: cgroup.procs");
    expect(released(block)).toBe("");
  });
});
