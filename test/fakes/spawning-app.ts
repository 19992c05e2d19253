/**
 * Stands in for the app in the crash tests of the spawn helper: it starts a long command through
 * startProcess (one plain, one detached with a child of its own), prints the pids of the helper and
 * of everything started, and waits to be killed.
 */
import { once } from "node:events";
import { helper } from "../../src/process/helper-connection.js";
import { startProcess } from "../../src/process/start-process.js";

const env = { PATH: "/usr/bin:/bin" };
const plain = startProcess({ command: "sleep", args: ["600"], env });
const group = startProcess({ command: "sh", args: ["-c", "sleep 600 & echo $!; wait"], env, detached: true });
await Promise.all([once(plain, "spawn"), once(group, "spawn")]);
const [grandchild] = (await once(group.stdout, "data")) as [Buffer];
console.log(`pids helper=${helper().pid} plain=${plain.pid} group=${group.pid} grandchild=${grandchild.toString().trim()} ready`);
