import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../../helpers/cli-process.js";
import { compiledApp } from "../../helpers/compiled-app.js";

/**
 * The stop on SIGTERM in a real process: it refuses new work, waits for the work in hand (here: until
 * the test writes a line to its stdin), is cut off by the grace period, and a second signal exits now.
 */
const MODULE = join(await compiledApp(), "src/github/stop-on-signal.js");

function start(graceMs: number): { child: ChildProcess; lines: string[]; line: (text: string) => Promise<void>; exit: Promise<number | null> } {
  const source = `
    import { stopOnSignals } from ${JSON.stringify(MODULE)};
    const inHand = new Promise((resolve) => process.stdin.once("data", resolve));
    stopOnSignals({
      refuse: async () => console.log("refusing new work"),
      drain: () => inHand,
      log: (line) => console.log(line),
      graceMs: ${graceMs},
    });
    console.log("ready");`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  let buffered = "";
  child.stdout!.on("data", (d: Buffer) => {
    buffered += d.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      for (const w of waiters.filter((x) => l.startsWith(x.text))) w.resolve();
    }
  });
  const line = (text: string) => (lines.some((l) => l.startsWith(text)) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ text, resolve })));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, lines, line, exit };
}

test("SIGTERM refuses new work, waits for the work in hand, then exits 0", async () => {
  const p = start(600_000);
  await p.line("ready");
  p.child.kill("SIGTERM");
  await p.line("refusing new work");
  expect(p.child.exitCode).toBeNull();
  p.child.stdin!.write("done\n");
  expect(await p.exit).toBe(0);
  expect(p.lines.slice(1)).toEqual([
    "SIGTERM: stopping — no new work; waiting up to 600 s for the work in hand",
    "refusing new work",
    "stopped: nothing was left running",
  ]);
});

test("work still in hand when the grace ends is left for the next start, and the process exits 0", async () => {
  const p = start(50);
  await p.line("ready");
  p.child.kill("SIGINT");
  expect(await p.exit).toBe(0);
  expect(p.lines.at(-1)).toBe("stopped: the work still running resumes at the next start");
});

test("a second signal exits at once, with 1", async () => {
  const p = start(600_000);
  await p.line("ready");
  p.child.kill("SIGTERM");
  await p.line("refusing new work");
  p.child.kill("SIGTERM");
  expect(await p.exit).toBe(1);
  expect(p.lines.at(-1)).toBe("SIGTERM again: exiting now; the work still running resumes at the next start");
});
