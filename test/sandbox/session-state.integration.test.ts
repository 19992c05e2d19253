import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionExtras } from "../../src/agent/session-sandbox.js";
import { sessionCacheDir } from "../../src/sandbox/session-cache.js";
import type { SandboxResult, SandboxRunRequest } from "../../src/sandbox/types.js";
import { bubblewrapIn, SANDBOX_FORMS, tempWorkspace, type FormSandbox } from "./sandbox-fixture.js";

/**
 * State that outlives a command: a command the model chose writes where a later command looks
 * (HOME's dotfiles, XDG config, tool caches, /tmp); the next command must find none of it. Only the
 * maintainer's setup step writes the session's cache, and what it left is what every later command
 * starts from.
 */

/** Where a planted file would change what a later tool does, as the sandbox's own variables name them. */
const PLANTS: { route: string; target: string }[] = [
  { route: "npm config in HOME (node-options runs a hook in every later npm script)", target: "$HOME/.npmrc" },
  { route: "git's global config (aliases, hooksPath, external diff)", target: "$HOME/.gitconfig" },
  { route: "bash startup file", target: "$HOME/.bashrc" },
  { route: "login shell profile", target: "$HOME/.profile" },
  { route: "XDG config: pip's user config", target: "$HOME/.config/pip/pip.conf" },
  // Found here, not in the issue: `go env -w CC=…` writes this file, and every later cgo build runs
  // the named compiler (GOFLAGS there is overridden by the sandbox's own GOFLAGS variable).
  { route: "go's env file (go env -w)", target: "$HOME/.config/go/env" },
  { route: "npm's cache", target: "$npm_config_cache/_cacache/planted" },
  { route: "the XDG cache", target: "$XDG_CACHE_HOME/planted" },
  { route: "go's build cache (an entry stands in for a compile)", target: "$GOCACHE/planted" },
  // Found here as well: with -modcacherw a module's source in the cache is writable, so a command
  // could rewrite a dependency that the approved `go test` then compiles.
  { route: "go's module cache", target: "$GOMODCACHE/example.com/dep@v1.0.0/dep.go" },
  // And cargo reads `$CARGO_HOME/config.toml`: `build.rustc-wrapper` runs a program around rustc.
  { route: "cargo's config in CARGO_HOME", target: "$CARGO_HOME/config.toml" },
  { route: "pip's cache", target: "$PIP_CACHE_DIR/planted" },
  { route: "/tmp", target: "/tmp/planted" },
];

const FORMS: { name: string; argv: (script: string) => string[] }[] = [
  // The argv form: one program with its arguments, no shell; node stands in for any program that writes a file.
  {
    name: "argv",
    argv: (target) => [
      "node",
      "-e",
      `const fs=require("fs"),p=require("path");const t=${JSON.stringify(target)}.replace(/\\$(\\w+)/g,(_,k)=>process.env[k]);fs.mkdirSync(p.dirname(t),{recursive:true});fs.writeFileSync(t,"planted\\n")`,
    ],
  },
  { name: "sh -c", argv: (target) => ["/bin/sh", "-c", plantLine(target)] },
  { name: "bash -c", argv: (target) => ["bash", "-c", plantLine(target)] },
  { name: "env bash -c", argv: (target) => ["env", "bash", "-c", plantLine(target)] },
];

function plantLine(target: string): string {
  return `mkdir -p "$(dirname "${target}")" && echo planted > "${target}"`;
}

/** A shell line that prints each target that exists, by its unexpanded name. */
function visible(targets: string[]): string {
  return targets.map((t) => `[ -e "${t}" ] && echo '${t}'`).join("; ") + "; true";
}

describe.each(SANDBOX_FORMS)("state a command leaves outside the workspace (%s)", (form) => {
  const ws = tempWorkspace("pg-state-ws-");
  const root = tempWorkspace("pg-state-cache-");
  let box: FormSandbox;
  let run: (req: Omit<SandboxRunRequest, "workspace" | "timeoutMs" | "session">) => Promise<SandboxResult>;

  beforeAll(async () => {
    box = await bubblewrapIn(form);
    const cache = await sessionCacheDir(root.dir, "s-state");
    const extras = sessionExtras([], cache);
    run = (req) => box.run({ ...req, workspace: ws.dir, timeoutMs: 30_000, session: extras });
  });
  afterAll(async () => {
    await box.end();
    ws.cleanup();
    root.cleanup();
  });

  test.each(FORMS)("a plant by one command ($name) is not there for the next", async ({ argv }) => {
    for (const { target } of PLANTS) await run({ argv: argv(target) });
    const after = await run({ argv: ["/bin/sh", "-c", visible(PLANTS.map((p) => p.target))] });
    expect(after.exitCode).toBe(0);
    expect(after.stdout).toBe("");
  });

  // npm hands node-options to every node its scripts start, as NODE_OPTIONS: the formatter runs the hook.
  test("a planted ~/.npmrc does not run its hook in a later npm script", async () => {
    writeFileSync(join(ws.dir, "package.json"), JSON.stringify({ name: "fmt", version: "1.0.0", scripts: { fmt: "node fmt.js" } }));
    writeFileSync(join(ws.dir, "fmt.js"), `console.log("formatted");\n`);
    writeFileSync(join(ws.dir, "hook.js"), `require("fs").writeFileSync("/workspace/hooked", "x");\n`);
    const plant = await run({ argv: ["/bin/sh", "-c", `echo "node-options=--require=/workspace/hook.js" > "$HOME/.npmrc"`] });
    expect(plant.exitCode).toBe(0);
    const fmt = await run({ argv: ["npm", "run", "fmt"] });
    expect(fmt.stdout).toContain("formatted");
    expect(existsSync(join(ws.dir, "hooked"))).toBe(false);
  });

  test("what setup leaves in HOME and the caches is there for every later command, and what a command changes there is not", async () => {
    const setup = await run({
      argv: ["/bin/sh", "-c", `mkdir -p "$HOME/.local" "$npm_config_cache" && echo from-setup > "$HOME/.local/marker" && echo pkg > "$npm_config_cache/pkg"`],
      setup: true,
    });
    expect(setup.exitCode).toBe(0);
    const change = await run({ argv: ["/bin/sh", "-c", `cat "$HOME/.local/marker" "$npm_config_cache/pkg"; echo changed > "$HOME/.local/marker"`] });
    expect(change.stdout).toBe("from-setup\npkg\n");
    const next = await run({ argv: ["/bin/sh", "-c", `cat "$HOME/.local/marker"`] });
    expect(next.stdout).toBe("from-setup\n");
  });

  test("a read-only verdict's run writes neither HOME nor the cache nor the workspace", async () => {
    mkdirSync(join(ws.dir, "sub"), { recursive: true });
    const r = await run({
      argv: ["/bin/sh", "-c", `for t in "$HOME/w" "$npm_config_cache/w" /workspace/sub/w; do (echo x > "$t") 2>/dev/null && echo "wrote $t"; done; true`],
      readOnlyWorkspace: true,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
  });
});
