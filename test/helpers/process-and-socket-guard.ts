import type ChildProcess from "node:child_process";
import { createRequire, syncBuiltinESMExports } from "node:module";
import type Net from "node:net";

/**
 * The unit tier is pure: a test there starts no process and opens no socket, which is what keeps the
 * whole tier fast. This makes that a rule rather than a hope: while forbidden, every way to start a
 * process (node:child_process) and every TCP or IPC socket (node:net, under http, fetch, pg…) throws
 * and is recorded, so even a caller that catches the error cannot hide it.
 *
 * Jest runs the files of all tiers in the same worker processes and these are the process-wide
 * built-in modules, so each tier's setup sets the rule for the file about to run (forbid or allow);
 * the originals are kept on the built-in module objects, the one place every test file shares.
 * They are required, not imported: an import here would make the module's ESM view before the patch,
 * and the test file would then receive that stale view.
 */
const require = createRequire(import.meta.url);
const childProcess = require("node:child_process") as typeof ChildProcess;
const net = require("node:net") as typeof Net;

const ORIGINALS = Symbol.for("patchgate.test.process-and-socket-originals");
const SPAWNERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

type Spawners = Pick<typeof childProcess, (typeof SPAWNERS)[number]>;
interface Originals {
  spawners: Spawners;
  connect: typeof net.Socket.prototype.connect;
  listen: typeof net.Server.prototype.listen;
}
type Holder = { [ORIGINALS]?: Originals };

const violations: string[] = [];

function originals(): Originals {
  const holder = childProcess as unknown as Holder;
  holder[ORIGINALS] ??= {
    spawners: Object.fromEntries(SPAWNERS.map((name) => [name, childProcess[name]])) as unknown as Spawners,
    connect: net.Socket.prototype.connect,
    listen: net.Server.prototype.listen,
  };
  return holder[ORIGINALS];
}

function refuse(what: string): never {
  const line = `unit tier: this test ${what}; a unit test starts no process and opens no socket. Name the file *.integration.test.ts (or *.slow.test.ts) to place it in a tier that may (CONTRIBUTING.md, "Test tiers").`;
  violations.push(line);
  throw new Error(line);
}

/** Every process start and every socket throws from now on (the unit tier's setup). */
export function forbidProcessesAndSockets(): void {
  originals();
  const cp = childProcess as unknown as Record<string, unknown>;
  for (const name of SPAWNERS) {
    cp[name] = (command: unknown) => refuse(`started a process (${name} ${JSON.stringify(String(command))})`);
  }
  net.Socket.prototype.connect = function connect(...args: unknown[]) {
    return refuse(`opened a socket (connect ${JSON.stringify(args[0])})`);
  } as typeof net.Socket.prototype.connect;
  net.Server.prototype.listen = function listen(...args: unknown[]) {
    return refuse(`opened a socket (listen ${JSON.stringify(args[0] ?? null)})`);
  } as typeof net.Server.prototype.listen;
  syncBuiltinESMExports();
}

/** Puts the real functions back (the other tiers' setup: a worker may have run a unit file before). */
export function allowProcessesAndSockets(): void {
  const saved = originals();
  Object.assign(childProcess, saved.spawners);
  net.Socket.prototype.connect = saved.connect;
  net.Server.prototype.listen = saved.listen;
  syncBuiltinESMExports();
}

/** The refusals recorded since the last call. */
export function takeRefusals(): string[] {
  return violations.splice(0);
}
