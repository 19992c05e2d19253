import { statSync } from "node:fs";
import { BubblewrapSandbox } from "../../src/sandbox/bubblewrap.js";
import { detectBwrapHost } from "../../src/sandbox/host-layout.js";
import { inForm, SANDBOX_FORMS, sh, tempWorkspace, type FormSandbox } from "./sandbox-fixture.js";

const NODES = ["null", "zero", "full", "random", "urandom", "tty"];
const hostNodes = () => NODES.map((n) => ({ node: n, ...pick(statSync(`/dev/${n}`)) }));
const pick = (s: { mode: number; uid: number; gid: number; rdev: number }) => ({ mode: s.mode, uid: s.uid, gid: s.gid, rdev: s.rdev });

/**
 * The sandbox's /dev holds the host's device numbers, never the host's nodes themselves: when
 * Patchgate runs as root, uid 0 inside owned the host's /dev/null and could chmod it for the whole
 * machine. Whatever a command tries, the host's nodes keep their mode and owner, and the command
 * still reads and writes its devices.
 */
describe.each(SANDBOX_FORMS)("bubblewrap (%s): the device nodes", (form) => {
  const ws = tempWorkspace("pg-dev-");
  let sandbox: FormSandbox;
  beforeAll(async () => {
    const host = await detectBwrapHost();
    if ("reason" in host) throw new Error(`bubblewrap unavailable: ${host.reason}`);
    sandbox = inForm(new BubblewrapSandbox(host), form);
  });
  afterAll(async () => {
    await sandbox.end();
    ws.cleanup();
  });

  test("chmod and chown are refused and change nothing on the host; the devices still work", async () => {
    const before = hostNodes();
    // Each attempt asks for the mode and owner the host's node already has: refused, it shows the
    // node is not the host's; were it the host's, this test would still change nothing on the machine.
    const attempts = before
      .map(
        (b) =>
          `chmod ${(b.mode & 0o7777).toString(8)} /dev/${b.node}; echo chmod-${b.node}=$?; chown ${b.uid}:${b.gid} /dev/${b.node}; echo chown-${b.node}=$?`,
      )
      .join("; ");
    const r = await sh(sandbox, ws.dir, `${attempts}; echo x > /dev/null; echo write=$?; head -c 3 /dev/zero | wc -c; head -c 4 /dev/urandom | wc -c`);
    expect(hostNodes()).toEqual(before);
    for (const n of NODES) expect(r.stdout).toMatch(new RegExp(`chmod-${n}=[1-9][\\s\\S]*chown-${n}=[1-9]`));
    expect(r.stdout).toContain("write=0");
    expect(r.stdout.trim().split("\n").slice(-2)).toEqual(["3", "4"]);
    // And the next command finds them as they were.
    const again = await sh(sandbox, ws.dir, "echo y > /dev/null && head -c 2 /dev/zero | wc -c");
    expect([again.exitCode, again.stdout.trim()]).toEqual([0, "2"]);
  });
});
