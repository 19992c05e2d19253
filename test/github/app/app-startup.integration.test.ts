import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { closedPort } from "../../helpers/closed-port.js";
import { tempDir } from "../../helpers/git-fixture.js";

const ROOT = join(import.meta.dirname, "../../..");
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

/**
 * `npm start`'s entry (src/main.ts) in its own process, started in `cwd` (where its .env is), with only
 * PATH and HOME from the test: resolves with its exit code and stderr, or — once `until` matches a log
 * message — with the messages so far (the process is then killed).
 */
function startApp(cwd: string, until: (msg: string) => boolean): Promise<{ code: number | null; stderr: string; messages: string[] }> {
  const child = spawn(process.execPath, ["--import", TSX, join(ROOT, "src/main.ts")], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: cwd, LOG_FORMAT: "json", NO_SMEE_SETUP: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const messages: string[] = [];
  return new Promise((resolve) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      const msg = (JSON.parse(line) as { msg?: string }).msg ?? "";
      messages.push(msg);
      if (until(msg)) child.kill("SIGKILL");
    });
    child.once("exit", (code) => resolve({ code, stderr, messages }));
  });
}

describe("npm start: what the app says at start", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = tempDir("pg-start-data-");
    dirs.push(dir);
    return join(dir, "d");
  };
  const dirWithEnv = (lines: string[]) => {
    const dir = tempDir("pg-start-");
    dirs.push(dir);
    writeFileSync(join(dir, ".env"), lines.join("\n") + "\n");
    return dir;
  };

  test("a bad variable in .env stops the start with one line naming it, never a stack trace", async () => {
    const dir = dirWithEnv(["PATCHGATE_LLM_RETRIES=lots", `PATCHGATE_DATA_DIR=${dataDir()}`]);
    const r = await startApp(dir, () => false);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: `patchgate: PATCHGATE_LLM_RETRIES must be a whole number ≥ 0, got "lots"\n` });
  });

  test("without OPENAI_API_KEY it warns, and one line names store, queue, sandbox, model and base URL", async () => {
    const data = dataDir();
    const port = await closedPort();
    const key = JSON.stringify(privateKey);
    const dir = dirWithEnv([
      "APP_ID=1",
      `PRIVATE_KEY=${key}`,
      "WEBHOOK_SECRET=s",
      `PORT=${port}`,
      "HOST=127.0.0.1",
      `PATCHGATE_DATA_DIR=${data}`,
      "PATCHGATE_MODEL=m-1",
    ]);
    const r = await startApp(dir, (m) => m.startsWith("patchgate: store"));
    expect(r.messages).toContain(
      "OPENAI_API_KEY is not set: every session will fail until it is (set it in .env or the environment, and OPENAI_BASE_URL for a compatible server)",
    );
    const line = r.messages.find((m) => m.startsWith("patchgate: store"));
    expect(line).toMatch(
      new RegExp(
        `^patchgate: store sqlite ${data}/patchgate\\.sqlite; queue in-process; sandbox .+; model m-1; base URL https://api\\.openai\\.com/v1 \\(default\\)$`,
      ),
    );
  });

  test("with a key: no warning, the base URL shown and the key never", async () => {
    const data = dataDir();
    const port = await closedPort();
    const dir = dirWithEnv([
      "APP_ID=1",
      `PRIVATE_KEY=${JSON.stringify(privateKey)}`,
      "WEBHOOK_SECRET=s",
      `PORT=${port}`,
      "HOST=127.0.0.1",
      `PATCHGATE_DATA_DIR=${data}`,
      "OPENAI_API_KEY=sk-start-secret-0123456789",
      "OPENAI_BASE_URL=http://127.0.0.1:1/v1",
    ]);
    const r = await startApp(dir, (m) => m.startsWith("patchgate: store"));
    expect(r.messages.some((m) => m.includes("OPENAI_API_KEY"))).toBe(false);
    expect(r.messages.find((m) => m.startsWith("patchgate: store"))).toMatch(/; model gpt-4\.1-mini; base URL http:\/\/127\.0\.0\.1:1\/v1$/);
    expect(r.messages.join("\n") + r.stderr).not.toContain("sk-start-secret");
  });
});
