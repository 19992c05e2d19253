import { rmSync } from "node:fs";
import { join } from "node:path";
import type { SessionEvent, StoredEvent } from "../../src/session/events.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { startFakeOpenAI } from "../fakes/chat/server.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";
import { cli } from "../helpers/run-cli.js";
import { sessionHistory } from "../helpers/session-history.js";

/**
 * A real project layout (node:test, no dependencies) fixed by `patchgate run` with a model behind a
 * fake endpoint, then `patchgate replay` with no model at all: the endpoint is closed and no key is
 * set, so every answer must come from the record. Then the same record with the edit's text changed.
 */
const FILES = {
  "package.json": JSON.stringify({ name: "slugs", version: "1.0.0", type: "module", scripts: { test: "node --test" } }, null, 2) + "\n",
  "src/slug.js": 'export function slug(title) {\n  return title.trim().toLowerCase().replace(/ +/, "-");\n}\n',
  "test/slug.test.js":
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { slug } from "../src/slug.js";\n\n' +
    'test("joins every word with a dash", () => {\n  assert.equal(slug("Hello big  World"), "hello-big-world");\n});\n',
  ".gitignore": "node_modules/\n",
};
const FIX = { path: "src/slug.js", search: "replace(/ +/,", replace: "replace(/ +/g," };

const repo = makeRepo(FILES);
const data = tempDir("pg-replay-layout-");
const altered = tempDir("pg-replay-altered-");
let events: StoredEvent[] = [];

beforeAll(async () => {
  const server = await startFakeOpenAI([
    { toolCalls: [{ name: "read_file", arguments: { path: FIX.path } }] },
    { toolCalls: [{ name: "submit_plan", arguments: { summary: `Fix ${FIX.path}`, steps: [`Fix ${FIX.path}`, "Run the tests"] } }] },
    { toolCalls: [{ name: "edit_file", arguments: { path: FIX.path, edits: [{ search: FIX.search, replace: FIX.replace }] } }] },
    { toolCalls: [{ name: "run_tests", arguments: {} }] },
    { toolCalls: [{ name: "finish", arguments: { summary: "Every run of spaces becomes one dash." } }] },
  ]);
  try {
    const env = { OPENAI_API_KEY: "sk-replay-layout", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await cli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Fix the failing slug test"], env);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  } finally {
    await server.close();
  }
  events = await sessionHistory(data);
}, 300_000);

afterAll(() => {
  repo.cleanup();
  for (const d of [data, altered]) rmSync(d, { recursive: true, force: true });
});

test("patchgate replay reproduces the published tree of a real-layout session without a model", async () => {
  const published = events.find((e) => e.type === "published");
  const tree = published?.type === "published" ? published.tree : undefined;
  expect(tree).toMatch(/^[0-9a-f]{40}$/);

  const r = await cli(["replay", events[0].type === "session_created" ? events[0].sessionId : "", "--json"], { PATCHGATE_DATA_DIR: data });

  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.parse(r.stdout)).toMatchObject({ same: true, treeId: tree, recordedTreeId: tree });
}, 300_000);

test("a record whose edit was changed is reported at its first diverging event, exit 1", async () => {
  const changed: SessionEvent[] = events.map(({ seq: _seq, at: _at, ...e }) =>
    e.type === "assistant_message" ? { ...e, toolCalls: e.toolCalls.map((c) => ({ ...c, arguments: c.arguments.replace("/ +/g,", "/ +/gi,") })) } : e,
  );
  const id = events[0].type === "session_created" ? events[0].sessionId : "";
  const store = SqliteSessionStore.open(join(altered, "patchgate.sqlite"));
  try {
    await store.append(id, changed, { phase: "done" });
  } finally {
    await store.close();
  }
  // Even --approve-writes asks: the batch's digest covers the edit's arguments, so its request is the first to differ.
  const edit = events.find((e) => e.type === "assistant_message" && e.toolCalls.some((c) => c.name === "edit_file"));
  const request = events.find((e) => e.type === "approval_requested" && e.seq > (edit?.seq ?? 0));
  const digest = request?.type === "approval_requested" ? request.digest : "?";

  const r = await cli(["replay", id.slice(0, 8)], { PATCHGATE_DATA_DIR: altered });

  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: "" });
  const [line, replayed] = r.stdout.split(", replayed ");
  expect(line).toBe(`replay of ${id} diverges at event ${request?.seq}: approval_requested differs; recorded approval_requested: ${digest.slice(0, 12)}…`);
  expect(replayed).toMatch(/^approval_requested: [0-9a-f]{12}…\n$/);
  expect(replayed).not.toContain(digest.slice(0, 12));
}, 300_000);
