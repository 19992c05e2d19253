import { rmSync } from "node:fs";
import { join } from "node:path";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { tempDir } from "../helpers/git-fixture.js";
import { cli } from "../helpers/run-cli.js";
import { created } from "../helpers/session-events.js";

const STACK = /\n\s+at |TypeError|Error:/;
const data = tempDir("pg-replay-usage-");
afterAll(() => rmSync(data, { recursive: true, force: true }));

beforeAll(async () => {
  // A session that was created and never got a workspace: nothing to replay.
  const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
  try {
    await store.append("5e55-no-workspace", [created("5e55-no-workspace")], { phase: "queued" });
  } finally {
    await store.close();
  }
});

test.each([
  [[], /^patchgate: a session id \(or a prefix of one\) is required\nusage: patchgate replay /],
  [["nope"], /^patchgate: no session nope in /],
  [["5e55"], /^patchgate: cannot replay: session 5e55-no-workspace never prepared a workspace: nothing to replay\n$/],
])(
  "replay %j is a usage error in one line, never a stack",
  async (args, message) => {
    const r = await cli(["replay", ...args], { PATCHGATE_DATA_DIR: data });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: "" });
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK);
  },
  60_000,
);

test("replay --help prints its usage and exits 0", async () => {
  const r = await cli(["replay", "--help"], { PATCHGATE_DATA_DIR: data });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(r.stdout).toMatch(/^usage: patchgate replay <session\|prefix> \[--repo <path\|url>\] \[--json\]/);
}, 60_000);
