import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "../../src/process/run-process.js";
import type { SandboxResult } from "../../src/sandbox/types.js";
import { bubblewrap, bubblewrapIn, SANDBOX_FORMS, sh, tempWorkspace, type FormSandbox } from "./sandbox-fixture.js";

const MIB = 1024 * 1024;
const LIMIT = 128 * MIB;

/** What a test asserts of a run: how it ended and which limit, if any, stopped it. */
function outcome(r: SandboxResult): Record<string, unknown> {
  return { exitCode: r.exitCode, limitExceeded: r.limitExceeded, timedOut: r.timedOut, stdout: r.stdout };
}

describe.each(SANDBOX_FORMS)("bubblewrap (%s): the disk limit is exact and the run's own", (form) => {
  let sandbox: FormSandbox;
  const ws = tempWorkspace("pg-disk-");
  beforeAll(async () => {
    sandbox = await bubblewrapIn(form);
  });
  afterAll(async () => {
    await sandbox.end();
    ws.cleanup();
  });
  afterEach(() => {
    for (const name of readdirSync(ws.dir)) rmSync(join(ws.dir, name), { recursive: true, force: true });
  });

  test("a burst of 48 MB files past the limit fails the run, and none of it is kept", async () => {
    // 22 × 48 MB = 1,056 MB against 128 MB, written as fast as the disk takes it.
    const r = await sh(sandbox, ws.dir, "mkdir burst; i=0; while [ $i -lt 22 ]; do head -c 50331648 /dev/zero > burst/$i; i=$((i+1)); done; echo finished", {
      limits: { diskBytes: LIMIT },
      timeoutMs: 120_000,
    });
    expect(outcome(r)).toEqual({ exitCode: null, limitExceeded: "disk", timedOut: false, stdout: "finished\n" });
    expect(r.stderr).toContain("more than the disk limit (128.0 MiB)");
    expect(readdirSync(ws.dir)).toEqual([]);
  });

  test("what a run kept reaches the workspace as it left it: deletions, a directory made anew, hard links, symlinks; never .git", async () => {
    mkdirSync(join(ws.dir, ".git"));
    mkdirSync(join(ws.dir, "dir"));
    mkdirSync(join(ws.dir, "dir2"));
    writeFileSync(join(ws.dir, "a.txt"), "a");
    writeFileSync(join(ws.dir, "dir", "old.txt"), "old");
    writeFileSync(join(ws.dir, "dir2", "x"), "x");
    const script =
      "rm a.txt; rm -r dir; mkdir dir; echo n > dir/new.txt; echo f > f; ln f f2; rm -r dir2; echo y > dir2; ln -s /etc/passwd sl; echo g > .git/x 2>/dev/null; echo done";
    const r = await sh(sandbox, ws.dir, script, { limits: { diskBytes: LIMIT } });
    expect(outcome(r)).toEqual({ exitCode: 0, limitExceeded: undefined, timedOut: false, stdout: "done\n" });
    expect(readdirSync(ws.dir).sort()).toEqual([".git", "dir", "dir2", "f", "f2", "sl"]);
    expect(readdirSync(join(ws.dir, "dir"))).toEqual(["new.txt"]);
    expect(readFileSync(join(ws.dir, "dir2"), "utf8")).toBe("y\n");
    expect(statSync(join(ws.dir, "f")).ino).toBe(statSync(join(ws.dir, "f2")).ino);
    expect(readlinkSync(join(ws.dir, "sl"))).toBe("/etc/passwd");
    expect(existsSync(join(ws.dir, ".git", "x"))).toBe(false);
  });

  test("a slow writer is stopped at the limit: it could write no more than 128 MB", async () => {
    // 4 MB at a time with a pause between: a sampler sees each step; the layer stops the one that crosses.
    const script = "i=0; while [ $i -lt 64 ]; do head -c 4194304 /dev/zero > slow$i || break; i=$((i+1)); sleep 0.02; done; cat slow* | wc -c";
    const r = await sh(sandbox, ws.dir, script, { limits: { diskBytes: LIMIT }, timeoutMs: 120_000 });
    const written = Number(r.stdout.trim());
    expect({ limitExceeded: r.limitExceeded, exitCode: r.exitCode }).toEqual({ limitExceeded: "disk", exitCode: null });
    expect(written).toBeGreaterThanOrEqual(LIMIT - 4 * MIB);
    expect(written).toBeLessThanOrEqual(LIMIT + 4096);
  });

  test("another process filling the same disk does not fail a small run", async () => {
    // The command waits until the host's disk (seen through /usr, on the same filesystem here) has lost
    // 256 MB, twice its limit, to a writer outside the sandbox, started once the command says it is running.
    // The writer writes 512 MB: the margin covers other processes freeing space on the disk meanwhile.
    const noise = join(tmpdir(), `pg-disk-noise-${process.pid}-${form}`);
    expect(statSync(tmpdir()).dev).toBe(statSync("/usr").dev);
    const script = [
      "printf small > mine",
      "bs=$(stat -f -c %S /usr)",
      "goal=$(( $(stat -f -c %a /usr) - 268435456 / bs ))",
      "echo started >&2",
      'while [ "$(stat -f -c %a /usr)" -gt "$goal" ]; do :; done',
      "echo saw-the-neighbour",
    ].join("\n");
    let writer: Promise<unknown> | null = null;
    try {
      const r = await sh(sandbox, ws.dir, script, {
        limits: { diskBytes: LIMIT },
        timeoutMs: 120_000,
        onOutput: (stream, line) => {
          if (stream === "stderr" && line.includes("started")) writer ??= writeNoise(noise);
        },
      });
      expect(outcome(r)).toEqual({ exitCode: 0, limitExceeded: undefined, timedOut: false, stdout: "saw-the-neighbour\n" });
      expect(readdirSync(ws.dir)).toEqual(["mine"]);
    } finally {
      await writer;
      rmSync(noise, { force: true });
    }
  });

  test("many empty files count too: a run may not make more inodes than its limit allows", async () => {
    // No page of data, so a byte count never sees them; each is an inode on the host once kept. A
    // 16 MB limit allows 16,384 of them: 20,000 files go past it.
    const r = await sh(sandbox, ws.dir, "mkdir many && cd many && seq 1 20000 | xargs touch 2>/dev/null; ls | wc -l", {
      limits: { diskBytes: 16 * MIB },
      timeoutMs: 120_000,
    });
    expect({ exitCode: r.exitCode, limitExceeded: r.limitExceeded }).toEqual({ exitCode: null, limitExceeded: "disk" });
    expect(existsSync(join(ws.dir, "many"))).toBe(false);
  });

  test("sparse files count at the size they are copied at, not the pages their holes leave out", async () => {
    // Each 60 MB file is one hole: it holds no page, but git hashes and copies all of it.
    const r = await sh(sandbox, ws.dir, "i=0; while [ $i -lt 4 ]; do truncate -s 62914560 sparse$i; i=$((i+1)); done; echo made", {
      limits: { diskBytes: LIMIT },
    });
    expect(outcome(r)).toEqual({ exitCode: null, limitExceeded: "disk", timedOut: false, stdout: "made\n" });
    expect(readdirSync(ws.dir)).toEqual([]);
  });
});

/** A writer outside the sandbox: 512 MB to a file on the host's disk, made durable. */
async function writeNoise(file: string): Promise<void> {
  await runProcess({ command: "dd", args: ["if=/dev/zero", `of=${file}`, "bs=1M", "count=512", "conv=fsync", "status=none"], env: {}, cwd: "/" });
}

describe("bubblewrap session: what runs leave in the workspace is bounded across runs", () => {
  test("two runs each within the limit, whose leftovers together exceed it: the second fails and keeps nothing", async () => {
    const ws = tempWorkspace("pg-disk-session-");
    const session = (await bubblewrap()).openSession!();
    try {
      const limits = { diskBytes: 64 * MIB };
      const first = await sh(session, ws.dir, "mkdir -p build && head -c 41943040 /dev/zero > build/a.o && echo ok", { limits });
      expect(outcome(first)).toEqual({ exitCode: 0, limitExceeded: undefined, timedOut: false, stdout: "ok\n" });
      // Rewriting what is already there adds nothing.
      const again = await sh(session, ws.dir, "head -c 41943040 /dev/zero > build/a.o && echo ok", { limits });
      expect(outcome(again)).toEqual({ exitCode: 0, limitExceeded: undefined, timedOut: false, stdout: "ok\n" });
      const second = await sh(session, ws.dir, "head -c 41943040 /dev/zero > build/b.o; echo done", { limits });
      expect({ exitCode: second.exitCode, limitExceeded: second.limitExceeded }).toEqual({ exitCode: null, limitExceeded: "disk" });
      expect(readdirSync(join(ws.dir, "build"))).toEqual(["a.o"]);
    } finally {
      await session.close();
      ws.cleanup();
    }
  });

  test("the bound outlives one resume's sandbox: a later session sandbox on the same workspace counts what the earlier left", async () => {
    const ws = tempWorkspace("pg-disk-resume-");
    mkdirSync(join(ws.dir, ".git"));
    const limits = { diskBytes: 64 * MIB };
    try {
      const first = (await bubblewrap()).openSession!();
      const r1 = await sh(first, ws.dir, "mkdir -p build && head -c 41943040 /dev/zero > build/a.o && echo ok", { limits }).finally(() => first.close());
      expect(outcome(r1)).toEqual({ exitCode: 0, limitExceeded: undefined, timedOut: false, stdout: "ok\n" });
      const second = (await bubblewrap()).openSession!();
      const r2 = await sh(second, ws.dir, "head -c 41943040 /dev/zero > build/b.o; echo done", { limits }).finally(() => second.close());
      expect({ exitCode: r2.exitCode, limitExceeded: r2.limitExceeded }).toEqual({ exitCode: null, limitExceeded: "disk" });
      expect(r2.stderr).toContain("of which the session's earlier runs left 24.0 MiB to keep");
      expect(readdirSync(join(ws.dir, "build"))).toEqual(["a.o"]);
    } finally {
      ws.cleanup();
    }
  });
});
