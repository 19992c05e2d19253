import { EventEmitter } from "node:events";
import type { ChildProcess } from "node:child_process";
import { PassThrough } from "node:stream";
import { joinCgroupThenRelease } from "../../src/sandbox/cgroup-handshake.js";
import type { PidsCgroup } from "../../src/sandbox/pids-cgroup.js";

// The real handshake runs in every bubblewrap test as root; these pin its order and failure paths
// with a stand-in for bwrap's two fds and a cgroup that records what it was asked.
function fakeChild() {
  const info = new PassThrough();
  const block = new PassThrough();
  const child = Object.assign(new EventEmitter(), { stdio: [null, null, null, info, block] }) as unknown as ChildProcess;
  return { child, info, block };
}

function fakeCgroup(fail = false) {
  const adopted: number[] = [];
  const cgroup = {
    adopt: async (pid: number) => {
      if (fail) throw new Error("EACCES: cgroup.procs");
      adopted.push(pid);
    },
  } as unknown as PidsCgroup;
  return { cgroup, adopted };
}

const read = (s: PassThrough) => (s.read() as Buffer | null)?.toString() ?? "";

describe("joinCgroupThenRelease", () => {
  test("the child pid, even split across chunks, joins the cgroup before the release byte is written", async () => {
    const { child, info, block } = fakeChild();
    const { cgroup, adopted } = fakeCgroup();
    const done = joinCgroupThenRelease(child, cgroup);
    info.write('{\n    "child-pid": 12');
    info.write('345,\n    "ipc-namespace": 1\n}\n');
    await done;
    expect(adopted).toEqual([12345]);
    expect(read(block)).toBe("1");
  });

  test("bwrap exiting before it reports a child is not a handshake error (its exit status tells why)", async () => {
    const { child, info, block } = fakeChild();
    const { cgroup, adopted } = fakeCgroup();
    const done = joinCgroupThenRelease(child, cgroup);
    info.end();
    await expect(done).resolves.toBeUndefined();
    expect({ adopted, released: read(block) }).toEqual({ adopted: [], released: "" });
  });

  test("a cgroup that refuses the pid fails the handshake and the sandbox is never released", async () => {
    const { child, info, block } = fakeChild();
    const { cgroup } = fakeCgroup(true);
    const done = joinCgroupThenRelease(child, cgroup);
    info.write('{"child-pid": 2147483646}');
    await expect(done).rejects.toThrow("EACCES: cgroup.procs");
    expect(read(block)).toBe("");
  });
});
