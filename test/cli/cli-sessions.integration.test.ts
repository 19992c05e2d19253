import { rmSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { showCommand, traceCommand } from "../../src/cli/inspect-commands.js";
import { listCommand } from "../../src/cli/list-command.js";
import { resumeCommand } from "../../src/cli/resume-command.js";
import { UsageError } from "../../src/cli/usage-error.js";
import type { SessionEvent } from "../../src/session/events.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { tempDir } from "../helpers/git-fixture.js";

const created = (sessionId: string, title: string): SessionEvent => ({
  type: "session_created",
  sessionId,
  task: { title, body: title, source: { kind: "cli", repo: "/src/project" } },
  model: "fake",
  settings: { maxStepsPerResume: 5, limits: {} },
});

async function capture(run: (out: NodeJS.WritableStream) => Promise<number>): Promise<{ code: number; text: string }> {
  const out = new PassThrough();
  let text = "";
  out.on("data", (b: Buffer) => (text += b.toString()));
  const code = await run(out);
  return { code, text };
}

describe("patchgate list, and sessions named by a prefix", () => {
  const data = tempDir("pg-sessions-");
  const ids = ["aaaa1111-0000-4000-8000-000000000001", "aaaa2222-0000-4000-8000-000000000002", "bbbb3333-0000-4000-8000-000000000003"];
  beforeAll(async () => {
    const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
    for (const [i, id] of ids.entries()) await store.append(id, [created(id, `task number ${i}`)], { phase: "queued" });
    await store.close();
  });
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  test("list: one line per session, newest first: short id, phase, time, repository and task", async () => {
    const r = await capture((out) => listCommand(["--data-dir", data], out));
    const lines = r.text.trimEnd().split("\n");
    expect(r.code).toBe(0);
    expect(lines.map((l) => l.split(/\s{2,}/).filter((c) => !/^\d{4}-/.test(c)))).toEqual([
      ["bbbb3333", "queued", "/src/project", "task number 2"],
      ["aaaa2222", "queued", "/src/project", "task number 1"],
      ["aaaa1111", "queued", "/src/project", "task number 0"],
    ]);
  });

  test("list --limit 1 says how many it left out", async () => {
    const r = await capture((out) => listCommand(["--data-dir", data, "--limit", "1"], out));
    expect(r.text.trimEnd().split("\n")).toEqual([expect.stringMatching(/^bbbb3333 /), "… 2 older (--limit 3)"]);
  });

  test("an empty data dir says so", async () => {
    const empty = tempDir("pg-sessions-empty-");
    try {
      expect((await capture((out) => listCommand(["--data-dir", empty], out))).text).toBe(`no sessions in ${empty}\n`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test("show and trace take a unique prefix, as in the branch name patchgate/<8 chars>", async () => {
    const shown = await capture((out) => showCommand(["aaaa2", "--data-dir", data], out));
    const traced = await capture((out) => traceCommand(["bbbb3333", "--jsonl", "--data-dir", data], out));
    expect(shown.text).toContain("task number 1");
    expect(JSON.parse(traced.text.trim())).toMatchObject({ type: "session_created", sessionId: ids[2] });
  });

  test("an ambiguous prefix is a usage error listing the sessions it matches", async () => {
    const message = `session prefix aaaa is ambiguous; it matches 2 sessions:\n  ${ids[1]}  queued\n  ${ids[0]}  queued`;
    await expect(showCommand(["aaaa", "--data-dir", data], new PassThrough())).rejects.toThrow(new UsageError(message));
    await expect(resumeCommand(["aaaa", "--data-dir", data], new PassThrough())).rejects.toThrow(new UsageError(message));
  });

  test("an unknown id or prefix points at patchgate list", async () => {
    await expect(traceCommand(["cccc", "--data-dir", data], new PassThrough())).rejects.toThrow(
      new UsageError(`no session cccc in ${data} (see: patchgate list)`),
    );
  });
});
