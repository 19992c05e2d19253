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

const REPO: Record<string, string> = {
  "src/add.js": "export function add(a, b) {\n  return a   +   b;\n}\n",
  "fmt.js": `const fs = require("fs");\nconst f = "src/add.js";\nfs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/ {2,}\\+ {2,}/g, " + "));\n`,
  "package.json": JSON.stringify({ name: "plant", version: "1.0.0", private: true, scripts: { fmt: "node fmt.js" } }),
  "test.sh": `node --input-type=module -e 'import { add } from "./src/add.js"; if (add(2, 3) !== 5) process.exit(1); console.log("ok");'\n`,
  ".github/patchgate.yml": "test: sh test.sh\n",
};

// The hook every planting route points at: it appends a line to the file the formatter writes.
const HOOK = `require("fs").appendFileSync("/workspace/src/add.js", "export const injected = 1;\\n");`;

/** Every route, each in one of the forms the tool accepts (argv, sh -c, bash -c, env bash -c). */
const PLANTS: string[][] = [
  // Package-manager config in HOME: npm hands node-options to every node its scripts start.
  [
    "node",
    "-e",
    `const fs=require("fs"),h=process.env.HOME;fs.writeFileSync(h+"/hook.js",${JSON.stringify(HOOK)});fs.writeFileSync(h+"/.npmrc","node-options=--require="+h+"/hook.js\\n")`,
  ],
  // The same through npm's own user config variable, written by a shell.
  ["sh", "-c", `mkdir -p "$HOME/.config/npm" && cp "$HOME/hook.js" /tmp/hook.js; echo "node-options=--require=$HOME/hook.js" > "$HOME/.config/npm/npmrc"`],
  // HOME dotfiles: git's global config, shell start-up files.
  ["bash", "-c", `git config --global core.hooksPath "$HOME/hooks" && echo 'node -e "${HOOK.replace(/"/g, '\\"')}"' | tee "$HOME/.bashrc" > "$HOME/.profile"`],
  // Git config of a nested repository outside the workspace, and XDG config.
  [
    "env",
    "bash",
    "-c",
    `git init -q "$HOME/nested" && git -C "$HOME/nested" config core.fsmonitor "$HOME/hook.js"; mkdir -p "$HOME/.config/git" && cp "$HOME/.gitconfig" "$HOME/.config/git/config"`,
  ],
  // Tool caches and /tmp.
  ["sh", "-c", `for d in "$npm_config_cache" "$GOCACHE" "$XDG_CACHE_HOME" /tmp; do mkdir -p "$d" && echo planted > "$d/planted"; done; true`],
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
      ...PLANTS.map((argv) => ({ toolCalls: [{ name: "run_command", arguments: { argv } }] })),
      { toolCalls: [{ name: "run_command", arguments: { argv: ["npm", "run", "fmt"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "formatted" } }] },
    ]);
    const env = { OPENAI_API_KEY: "sk-cli-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await cli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Format src/add.js"], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(server.remaining()).toBe(0);
    const sessionId = /session (\S+)/.exec(r.stdout)![1]!;
    const clone = join(data, "workspaces", sessionId);
    const branch = `patchgate/${sessionId.slice(0, 8)}`;
    const git = (...args: string[]) => execFileSync("git", ["-C", clone, ...args], { encoding: "utf8" });
    expect(git("diff", "--name-only", `main`, branch)).toBe("src/add.js\n");
    expect(git("show", `${branch}:src/add.js`)).toBe(FORMATTED);
  }, 180_000);
});
