import { FRAME } from "./frames.js";

/**
 * The spawn helper: a small node process that starts every child process for the app, so that the
 * fork cost (which grows with the forking process's memory: ~0.75 ms at 53 MB, ~11 ms at 427 MB)
 * is paid by a process of a few tens of MB that does nothing else, never by the event loop that
 * answers webhooks. It is plain CommonJS run with `node -e`, so it needs no build step and no file.
 *
 * It holds no secrets of its own: its environment is empty, and each child gets exactly the
 * environment its START frame names. It ignores the terminal's and the service manager's signals
 * (the app decides when to stop) and ends when its stdin ends, i.e. when the app exits or is killed,
 * killing whatever it still runs first, so nothing it started outlives the app.
 *
 * It lowers its own priority by CHILD_NICE before it forks anything, so every process it starts (and
 * theirs) inherits it: on 2 cores busy with git and test runs, the app's event loop otherwise waited
 * for a CPU behind them (50 concurrent sessions: 2-4 s runnable but not running, event-loop p99 25 ms).
 * Below the app, never above: raising a priority needs a privilege, lowering it does not.
 */
const CHILD_NICE = 10;

export const HELPER_SOURCE = `"use strict";
const { spawn } = require("child_process");
const net = require("net");
const os = require("os");
os.setPriority(Math.min(19, os.getPriority() + ${CHILD_NICE}));
const T = ${JSON.stringify(FRAME)};
const input = new net.Socket({ fd: 0, readable: true, writable: false });
const output = new net.Socket({ fd: 1, readable: false, writable: true });
const running = new Map();
for (const s of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) process.on(s, () => {});
output.on("error", () => stop());

function send(id, type, payload) {
  const head = Buffer.alloc(9);
  head.writeUInt32BE(payload.length + 5, 0);
  head.writeUInt32BE(id, 4);
  head.writeUInt8(type, 8);
  output.write(Buffer.concat([head, payload]));
}
const json = (v) => Buffer.from(JSON.stringify(v));
const fdFrame = (fd, bytes) => Buffer.concat([Buffer.from([fd]), bytes || Buffer.alloc(0)]);
const failure = (e) => json({ message: e.message, code: e.code, errno: e.errno, syscall: e.syscall });

function start(id, o) {
  const stdio = [o.stdin, "pipe", "pipe"];
  for (let i = 0; i < o.extraPipes; i++) stdio.push("pipe");
  let child;
  try {
    child = spawn(o.command, o.args, { env: o.env, cwd: o.cwd, detached: o.detached, stdio });
  } catch (e) {
    send(id, T.failed, failure(e));
    return;
  }
  let failed = false;
  running.set(id, { child, detached: o.detached });
  child.once("spawn", () => send(id, T.spawned, json({ pid: child.pid })));
  child.once("error", (e) => {
    if (child.pid !== undefined) return;
    failed = true;
    running.delete(id);
    send(id, T.failed, failure(e));
  });
  child.stdio.forEach((stream, fd) => {
    if (!stream) return;
    stream.on("error", () => {});
    if (fd === 0) return;
    stream.on("data", (chunk) => send(id, T.data, fdFrame(fd, chunk)));
    stream.on("end", () => send(id, T.eof, fdFrame(fd)));
  });
  child.once("exit", (code, signal) => { if (!failed) send(id, T.exit, json({ code, signal })); });
  child.once("close", (code, signal) => {
    running.delete(id);
    if (!failed) send(id, T.close, json({ code, signal }));
  });
}

function kill(entry, signal, group) {
  const pid = entry.child.pid;
  try {
    if (group && pid !== undefined) process.kill(-pid, signal);
    else entry.child.kill(signal);
  } catch {}
}

function onFrame(id, type, payload) {
  if (type === T.start) return start(id, JSON.parse(payload.toString("utf8")));
  const entry = running.get(id);
  if (!entry) return;
  const stream = type === T.write || type === T.end ? entry.child.stdio[payload[0]] : null;
  if (type === T.write && stream) stream.write(payload.subarray(1));
  else if (type === T.end && stream) stream.end();
  else if (type === T.kill) {
    const k = JSON.parse(payload.toString("utf8"));
    kill(entry, k.signal, k.group);
  }
}

function stop() {
  for (const entry of running.values()) kill(entry, "SIGKILL", entry.detached);
  process.exit(0);
}

// Chunks are joined only once a whole frame is in (a large stdin write is one frame).
let chunks = [];
let total = 0;
let need = 4;
input.on("data", (chunk) => {
  chunks.push(chunk);
  total += chunk.length;
  if (total < need) return;
  const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  let at = 0;
  for (;;) {
    if (buf.length - at < 4) { need = 4; break; }
    const size = buf.readUInt32BE(at);
    if (buf.length - at - 4 < size) { need = 4 + size; break; }
    onFrame(buf.readUInt32BE(at + 4), buf.readUInt8(at + 8), buf.subarray(at + 9, at + 4 + size));
    at += 4 + size;
  }
  const rest = buf.subarray(at);
  chunks = rest.length === 0 ? [] : [rest];
  total = rest.length;
});
input.on("end", stop);
input.on("error", stop);
`;
