import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { selectSandbox } from "../../src/sandbox/select.js";
import { which } from "../../src/toolchain/layouts/fs.js";
import { tempWorkspace } from "./sandbox-fixture.js";

// Stand-in clients: real executables, so the probe code runs exactly as it would against the real ones.
const dir = tempWorkspace("pg-fake-bin-");
function fakeBinary(name: string, body: string): string {
  const file = join(dir.dir, name);
  writeFileSync(file, `#!/bin/sh\necho "$*" >> "${dir.dir}/${name}.calls"\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}
const calls = (name: string) => readFileSync(join(dir.dir, `${name}.calls`), "utf8");

const NO_ENGINE = 'echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; exit 1';
const noEngine = fakeBinary("docker-no-engine", NO_ENGINE);
const hangingEngine = fakeBinary("docker-hanging", "exec sleep 1000");
const engine = fakeBinary("docker-ok", '[ "$1" = info ] && echo 27.1.1; exit 0');
const brokenBwrap = fakeBinary("bwrap-broken", 'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1');

afterAll(() => dir.cleanup());

describe("selectSandbox", () => {
  test("auto: no docker engine answering → bubblewrap, after asking docker once", async () => {
    const chosen = await selectSandbox("auto", { docker: noEngine });
    expect(chosen.sandbox?.backend).toBe("bubblewrap");
    expect(calls("docker-no-engine")).toBe("info --format {{.ServerVersion}}\n");
  });

  test("docker requested, no engine: null with the client's own words", async () => {
    expect(await selectSandbox("docker", { docker: noEngine })).toEqual({
      sandbox: null,
      reason: "docker engine not reachable: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
    });
  });

  test("an engine that does not answer within the probe time counts as absent", async () => {
    const started = Date.now();
    expect(await selectSandbox("docker", { docker: hangingEngine, dockerProbeMs: 300 })).toEqual({
      sandbox: null,
      reason: "docker engine not reachable: timed out",
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("auto: an engine that answers wins", async () => {
    const chosen = await selectSandbox("auto", { docker: engine, image: "node:20-bookworm" });
    expect(chosen.sandbox?.backend).toBe("docker");
  });

  test("auto: docker and bubblewrap are asked at once, and docker's yes still wins", async () => {
    // The engine answers only once the bubblewrap probe has started: asked one after the other, docker
    // would give up first and bubblewrap would be chosen.
    const marker = join(dir.dir, "bwrap-started");
    const real = await which("bwrap");
    if (real === null) throw new Error("bwrap is not on PATH");
    const bwrap = fakeBinary("bwrap-marking", `touch "${marker}"; exec "${real}" "$@"`);
    const waiting = fakeBinary(
      "docker-after-bwrap",
      `i=0; while [ ! -e "${marker}" ]; do i=$((i+1)); [ $i -gt 160 ] && { echo "no bubblewrap probe under way" >&2; exit 1; }; sleep 0.05; done; echo 27.1.1`,
    );
    const chosen = await selectSandbox("auto", { docker: waiting, bwrap, dockerProbeMs: 20_000 });
    expect(chosen.reason).toBeUndefined();
    expect(chosen.sandbox?.backend).toBe("docker");
  });

  test("bubblewrap that cannot create namespaces: null with bwrap's message", async () => {
    expect(await selectSandbox("bubblewrap", { bwrap: brokenBwrap })).toEqual({
      sandbox: null,
      reason: "bubblewrap cannot start a sandbox: cannot start a bubblewrap sandbox: bwrap: setting up uid map: Permission denied",
    });
  });

  test("neither backend: null, never an unsandboxed runner, with both reasons", async () => {
    expect(await selectSandbox("auto", { docker: "/nonexistent/docker", bwrap: "/nonexistent/bwrap" })).toEqual({
      sandbox: null,
      reason: "no sandbox available — docker: /nonexistent/docker client not found; bubblewrap: /nonexistent/bwrap not found (install bubblewrap)",
    });
  });

  test("auto with this machine's real clients gives a sandbox that runs a command", async () => {
    const ws = tempWorkspace();
    const chosen = await selectSandbox("auto");
    if (chosen.sandbox === null) throw new Error(chosen.reason);
    const r = await chosen.sandbox.run({ argv: ["sh", "-c", "echo ok"], workspace: ws.dir, timeoutMs: 30_000 });
    ws.cleanup();
    expect(r.stdout).toBe("ok\n");
  });
});
