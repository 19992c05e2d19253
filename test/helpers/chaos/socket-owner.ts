import { readFileSync, readdirSync, readlinkSync } from "node:fs";

/**
 * Which of `candidates` (process ids) made a TCP connection from 127.0.0.1:`port`: the process that
 * holds the socket, or its nearest ancestor among the candidates (a clone is made by a `git`
 * child of the app). Read from /proc, so a test can kill exactly the process whose request a fake
 * server is holding, even when the request names nothing (a git fetch).
 */
export function processOfClientPort(port: number, candidates: readonly number[]): number | null {
  const inode = socketInode(port);
  if (inode === null) return null;
  const holder = socketHolder(inode);
  for (let pid = holder; pid !== null && pid > 1; pid = parentOf(pid)) if (candidates.includes(pid)) return pid;
  return null;
}

function socketInode(port: number): string | null {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(`:${hex}`)) return f[9];
    }
  }
  return null;
}

function socketHolder(inode: string): number | null {
  const target = `socket:[${inode}]`;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone meanwhile
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return Number(pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}

function parentOf(pid: number): number | null {
  try {
    const m = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
