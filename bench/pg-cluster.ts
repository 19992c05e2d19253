/**
 * A throwaway PostgreSQL cluster for a bench that needs one: the host's server binaries, a temporary
 * data directory owned by the `postgres` user (PostgreSQL refuses to run as root), a free port on
 * 127.0.0.1, no fsync (nothing here must survive). Null, with the reason, where the host has none.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

export interface BenchCluster {
  url: string;
  stop(): void;
}

const USER = "postgres";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

function serverBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, "bin")).find((b) => existsSync(path.join(b, "pg_ctl"))) ?? null;
}

export async function startCluster(): Promise<BenchCluster | { reason: string }> {
  const bin = serverBin();
  if (bin === null) return { reason: "no PostgreSQL server on this host (Debian: postgresql)" };
  const dir = mkdtempSync(path.join(os.tmpdir(), "pg-bench-cluster-"));
  const as = (cmd: string, args: string[]) => execFileSync("runuser", ["-u", USER, "--", path.join(bin, cmd), ...args], { stdio: "pipe", timeout: 120_000 });
  try {
    chownSync(
      dir,
      Number(execFileSync("id", ["-u", USER], { encoding: "utf8" }).trim()),
      Number(execFileSync("id", ["-g", USER], { encoding: "utf8" }).trim()),
    );
    as("initdb", ["-D", path.join(dir, "data"), "-A", "trust", "-U", "pg"]);
    const port = await freePort();
    as("pg_ctl", [
      "-D",
      path.join(dir, "data"),
      "-l",
      path.join(dir, "log"),
      "-w",
      "-o",
      `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off`,
      "start",
    ]);
    return {
      url: `postgres://pg@127.0.0.1:${port}/postgres`,
      stop: () => {
        try {
          as("pg_ctl", ["-D", path.join(dir, "data"), "-m", "fast", "-w", "stop"]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return { reason: `the cluster did not start: ${(e as Error).message.split("\n")[0]}` };
  }
}
