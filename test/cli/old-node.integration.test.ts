import { execFile } from "node:child_process";
import { ROOT } from "../helpers/cli-process.js";

/**
 * `npx patchgate` and `npm start` started by a node older than 24 (the version is made to read 20.1.0
 * before the entry runs): one line on stderr naming the node and what to run instead, exit 1, no
 * stack and no crash. The same entries on this node go on to the CLI.
 */
const AS_NODE_20 = "data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'20.1.0'}})";

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, args, { cwd: ROOT }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr })),
  );
}

test.each(["bin/patchgate.js", "bin/start.js"])("%s on node 20: one line naming the node and what to run, exit 1", async (entry) => {
  const r = await run(["--import", AS_NODE_20, entry, "--help"]);
  expect(r).toEqual({
    code: 1,
    stdout: "",
    stderr: `patchgate needs Node 24 or newer, and ${process.execPath} is v20.1.0: in the checkout, \`npm start\` and \`npx patchgate\` run the Node 24 that \`npm install\` linked as node_modules/.bin/node.\n`,
  });
});

test("bin/patchgate.js on this node goes on to the CLI", async () => {
  const r = await run(["bin/patchgate.js", "--help"]);
  expect(r.stderr).not.toContain("needs Node");
  expect(r.stdout + r.stderr).toContain("patchgate run --repo");
});
