import childProcess from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { allowProcessesAndSockets, forbidProcessesAndSockets, takeRefusals } from "./process-and-socket-guard.js";

// Jest runs the files of every tier in the same workers: a file here may follow a unit file, whose
// refusals are still installed on the built-in modules. The setup of this tier puts the real
// functions back; this does the same sequence inside one file and looks.

afterEach(() => allowProcessesAndSockets());

test("after a unit file's refusals, allowing gives the real process start back", () => {
  forbidProcessesAndSockets();
  expect(() => childProcess.spawnSync(process.execPath, ["-e", ""])).toThrow("unit tier");
  expect(takeRefusals()).toHaveLength(1);

  allowProcessesAndSockets();
  const ran = childProcess.spawnSync(process.execPath, ["-e", "process.stdout.write('ran')"], { encoding: "utf8" });
  expect({ status: ran.status, stdout: ran.stdout }).toEqual({ status: 0, stdout: "ran" });
});

test("after a unit file's refusals, allowing gives real sockets back", async () => {
  forbidProcessesAndSockets();
  allowProcessesAndSockets();
  const server = http.createServer((_req, res) => res.end("served"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe("served");
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  expect(takeRefusals()).toEqual([]);
});
