import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";
import { cli } from "../helpers/run-cli.js";

/**
 * A command the model chose writes where a later, approved command looks; then a maintainer approves
 * the formatter. Whatever the plants are, the published tree is the base plus the formatter's change.
 */
const FORMATTED = "export function add(a, b) {\n  return a + b;\n}\n";

// The hook every planting route points at: it appends a line to the file the formatter writes.
const HOOK = `require("fs").appendFileSync("/workspace/src/add.js", "export const injected = 1;\\n");\n`;

/**
 * A program in the repository that plants through one route, as any program a command runs could:
 * the policy sees `node plant.js <route>`, never the files it writes.
 */
const PLANT_JS = `const fs = require("fs"), path = require("path"), { execFileSync } = require("child_process");
const h = process.env.HOME;
const put = (f, text) => { fs.mkdirSync(path.dirname(f), { recursive: true }); fs.writeFileSync(f, text); };
const routes = {
  // Package-manager config in HOME: npm hands node-options to every node its scripts start.
  npmrc: () => { put(h + "/hook.js", ${JSON.stringify(HOOK)}); put(h + "/.npmrc", "node-options=--require=" + h + "/hook.js\\n"); },
  // pip's user config (XDG), pointing installs at another index.
  pip: () => put(h + "/.config/pip/pip.conf", "[global]\\nindex-url = http://127.0.0.1:9/\\n"),
  // HOME dotfiles: git's global config, shell start-up files.
  dotfiles: () => { put(h + "/.gitconfig", "[core]\\n\\thooksPath = " + h + "/hooks\\n"); put(h + "/.bashrc", "node " + h + "/hook.js\\n"); put(h + "/.profile", "node " + h + "/hook.js\\n"); },
  // Git config of a nested repository outside the workspace, and git's XDG config.
  nested: () => { execFileSync("git", ["init", "-q", h + "/nested"]); execFileSync("git", ["-C", h + "/nested", "config", "core.fsmonitor", h + "/hook.js"]); put(h + "/.config/git/config", "[core]\\n\\tfsmonitor = " + h + "/hook.js\\n"); },
  // Tool caches and /tmp: whichever the run may write.
  caches: () => { for (const d of [process.env.npm_config_cache, process.env.GOCACHE, process.env.XDG_CACHE_HOME, "/tmp"]) { try { put(d + "/planted", "x"); } catch {} } },
};
routes[process.argv[2]]();
console.log("planted-" + process.argv[2]);
`;

const REPO: Record<string, string> = {
  "src/add.js": "export function add(a, b) {\n  return a   +   b;\n}\n",
  "fmt.js": `const fs = require("fs");\nconst f = "src/add.js";\nfs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/ {2,}\\+ {2,}/g, " + "));\n`,
  "plant.js": PLANT_JS,
  "package.json": JSON.stringify({ name: "plant", version: "1.0.0", private: true, scripts: { fmt: "node fmt.js" } }),
  "test.sh": `node --input-type=module -e 'import { add } from "./src/add.js"; if (add(2, 3) !== 5) process.exit(1); console.log("ok");'\n`,
  ".github/patchgate.yml": "test: sh test.sh\n",
};

/** Every route, each in one of the forms the tool accepts (argv, sh -c, bash -c, env bash -c). */
const PLANTS: { route: string; argv: string[] }[] = [
  { route: "npmrc", argv: ["node", "plant.js", "npmrc"] },
  { route: "pip", argv: ["sh", "-c", "node plant.js pip"] },
  { route: "dotfiles", argv: ["bash", "-c", "node plant.js dotfiles"] },
  { route: "nested", argv: ["env", "bash", "-c", "node plant.js nested"] },
  { route: "caches", argv: ["node", "plant.js", "caches"] },
];

describe("patchgate run: state planted by commands never reaches an approved command", () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    expect(server?.violations ?? []).toEqual([]);
    await server?.close();
    for (const c of cleanups.splice(0)) c();
  });

  test("every planting route, then the approved formatter and tests: the published tree is exactly base + the formatter's change", async () => {
    const repo = makeRepo(REPO);
    const data = tempDir("pg-cli-plant-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "format add.js", steps: ["run the formatter", "run tests"] } }] },
      ...PLANTS.map(({ argv }) => ({ toolCalls: [{ name: "run_command", arguments: { argv } }] })),
      { toolCalls: [{ name: "run_command", arguments: { argv: ["npm", "run", "fmt"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "formatted" } }] },
    ]);
    const env = { OPENAI_API_KEY: "sk-cli-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await cli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Format src/add.js"], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(server.remaining()).toBe(0);
    // Each plant did write: the routes were open to the command that used them.
    for (const { route } of PLANTS) expect(r.stdout).toContain(`planted-${route}`);
    const sessionId = /session (\S+)/.exec(r.stdout)![1]!;
    const clone = join(data, "workspaces", sessionId);
    const branch = `patchgate/${sessionId.slice(0, 8)}`;
    const git = (...args: string[]) => execFileSync("git", ["-C", clone, ...args], { encoding: "utf8" });
    expect(git("diff", "--name-only", `main`, branch)).toBe("src/add.js\n");
    expect(git("show", `${branch}:src/add.js`)).toBe(FORMATTED);
  }, 180_000);
});
