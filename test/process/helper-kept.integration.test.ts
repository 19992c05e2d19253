import { helper, HelperConnection, keepHelper } from "../../src/process/helper-connection.js";
import { runProcess } from "../../src/process/run-process.js";
import { untilGone } from "./process-state.js";

const PATH = { PATH: "/usr/bin:/bin" };
const IDLE_MS = 10_000;

/**
 * A process whose work is sessions keeps its spawn helper: after an idle spell longer than the one
 * that lets a test file's helper go (a long model call), its next command runs in the same helper,
 * also when that helper replaced a dead one. A helper not kept is let go in the same spell.
 */
test("a kept helper, a replacement for a dead one too, outlives an idle spell that lets an unkept one go", async () => {
  const unkept = HelperConnection.start();
  keepHelper({ startNow: true });
  const first = helper();
  process.kill(first.pid!, "SIGKILL");
  while (first.alive) await new Promise((r) => setTimeout(r, 20));
  await runProcess({ command: "true", args: [], env: PATH });
  const replacement = helper().pid!;
  expect(replacement).not.toBe(first.pid);

  await new Promise((r) => setTimeout(r, IDLE_MS + 1_500));
  await untilGone([unkept.pid!]);
  expect(unkept.alive).toBe(false);
  await runProcess({ command: "true", args: [], env: PATH });
  expect(helper().pid).toBe(replacement);
}, 30_000);

// A kept helper would outlive this file in the jest worker.
afterAll(async () => {
  const pid = helper().pid!;
  process.kill(pid, "SIGKILL");
  await untilGone([pid]);
});
