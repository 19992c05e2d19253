import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSigningKeys, signingKeyDir } from "../../src/receipt/signing-key.js";
import { compiledApp } from "../helpers/compiled-app.js";

const ROOT = join(import.meta.dirname, "../..");
const WORKERS = 6;
/** The fixture compiled (../helpers/compiled-app.ts): six processes at once need no tsx loader each. */
const FIXTURE = join(await compiledApp(), "test/receipt/fixtures/load-key-on-go.js");

interface Worker {
  ready: Promise<void>;
  keyId: Promise<string>;
  go(): void;
}

function startWorker(dataDir: string): Worker {
  const child = spawn(process.execPath, [FIXTURE], {
    cwd: ROOT,
    env: { ...process.env, PATCHGATE_DATA_DIR: dataDir },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.includes("ready\n")) onReady();
  });
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const keyId = new Promise<string>((resolve, reject) =>
    child.once("exit", (code) => {
      const m = /^key (\S+)$/m.exec(out);
      if (code === 0 && m) resolve(m[1]);
      else reject(new Error(`worker exited ${code}: ${out}${err}`));
    }),
  );
  return { ready, keyId, go: () => child.stdin.end("go\n") };
}

describe("the data directory's signing key, created by several workers at once", () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), "pg-signing-race-"))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("ends as one key that every worker signs with, and no leftover file", async () => {
    const workers = Array.from({ length: WORKERS }, () => startWorker(dataDir));
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const ids = await Promise.all(workers.map((w) => w.keyId));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toBe(loadSigningKeys({ dataDir, env: {} }).current.keyId);
    expect(readdirSync(signingKeyDir(dataDir))).toEqual(["current.pem"]);
  }, 60_000);
});
