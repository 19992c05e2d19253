import childProcess, { execFile } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { takeRefusals } from "./process-and-socket-guard.js";

// This file is in the unit tier, so its setup (unit-tier-setup.ts) has already refused processes and
// sockets. Each test takes the refusals it caused, or the setup would fail it for them.

const MOVE_HINT = "Name the file *.integration.test.ts (or *.slow.test.ts)";

test("starting a process throws one line naming the call and where such a test belongs", () => {
  expect(() => childProcess.spawnSync(process.execPath, ["-e", ""])).toThrow(
    `unit tier: this test started a process (spawnSync ${JSON.stringify(process.execPath)}); a unit test starts no process and opens no socket. ${MOVE_HINT}`,
  );
  expect(() => execFile("git", ["--version"])).toThrow('started a process (execFile "git")');
  expect(takeRefusals()).toHaveLength(2);
});

test("listening on a port and connecting to one both throw", () => {
  const server = http.createServer();
  let socket: net.Socket | undefined;
  try {
    expect(() => server.listen(0, "127.0.0.1")).toThrow("unit tier: this test opened a socket (listen 0)");
    expect(() => (socket = net.connect({ host: "127.0.0.1", port: 80 }).on("error", () => {}))).toThrow("unit tier: this test opened a socket (connect");
  } finally {
    // Were the guard gone, these would hold jest open instead of failing the test.
    server.close();
    socket?.destroy();
  }
  expect(takeRefusals()).toHaveLength(2);
});

test("fetch is refused too: it reaches the network through the same sockets", async () => {
  await expect(fetch("http://127.0.0.1/")).rejects.toThrow("fetch failed");
  expect(takeRefusals()).toEqual([expect.stringMatching(/^unit tier: this test opened a socket \(connect /)]);
});

test("a refusal the code under test catches is still recorded, so the test fails for it", () => {
  try {
    childProcess.execSync("true");
  } catch {
    // what code that turns a failed start into a result would do
  }
  expect(takeRefusals()).toEqual([expect.stringContaining('started a process (execSync "true")')]);
});
