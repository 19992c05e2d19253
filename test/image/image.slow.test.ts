import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { tempDir } from "../helpers/git-fixture.js";
import { ROOT } from "../helpers/cli-process.js";
import { copyOf, execForm, readStages, type Stage } from "./dockerfile.js";

/**
 * The image as far as this machine allows (no Docker engine): the Dockerfile's own build commands
 * run on a copy of what it copies, the runtime stage is assembled from what it copies out of the
 * build, and its CMD must boot and pass its HEALTHCHECK. `npm ci` is stood in for by a hard-link copy
 * of this checkout's node_modules (same lockfile, no network); apt-get lines are the OS's part.
 */
const stages = readStages(join(ROOT, "Dockerfile"));
const stage = (name: string): Stage => stages.find((s) => s.name === name)!;
const runs = (s: Stage) => s.instructions.filter((i) => i.op === "RUN").map((i) => i.args);

describe("the Dockerfile", () => {
  test("builds in one stage and runs from another with only git and bubblewrap, as an unprivileged user", () => {
    expect(stages.map((s) => s.name)).toEqual(["build", "runtime"]);
    const runtime = stage("runtime");
    const apt = runs(runtime).join(" ");
    expect(apt).toMatch(/\bgit\b/);
    expect(apt).toMatch(/\bbubblewrap\b/);
    expect(apt).not.toMatch(/\b(python3|make|g\+\+)\b/);
    const ops = runtime.instructions.map((i) => i.op);
    expect(ops.lastIndexOf("USER")).toBeLessThan(ops.indexOf("CMD"));
    expect(runtime.instructions.filter((i) => i.op === "USER").at(-1)!.args).toBe("node");
    expect(execForm(runtime.instructions.find((i) => i.op === "CMD")!.args)).toEqual(["node", "dist/main.js"]);
    const fromBuild = runtime.instructions.filter((i) => i.op === "COPY" && copyOf(i).from === "build").map((i) => copyOf(i).sources);
    expect(fromBuild.flat().sort()).toEqual(["/app/dist", "/app/node_modules"]);
  });

  test("both stages are Node 24 LTS (Node 20 reached its end of life in April 2026)", () => {
    expect(stages.map((s) => s.base)).toEqual(["node:24-bookworm-slim", "node:24-bookworm-slim"]);
  });

  test(".dockerignore keeps local state and secrets out of the build context", () => {
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim());
    for (const p of ["node_modules", ".git", ".env", "*.pem", "dist"]) expect(ignored).toContain(p);
  });

  describe("its commands on this machine", () => {
    let root: string;
    let app: ChildProcess | undefined;
    /** The assembled runtime tree and the environment its CMD ran with, once the boot test built them. */
    let booted: { rt: string; env: NodeJS.ProcessEnv } | undefined;
    beforeAll(() => {
      root = tempDir("pg-image-");
    });
    afterAll(() => {
      app?.kill("SIGKILL");
      rmSync(root, { recursive: true, force: true });
    });

    test("the pruned runtime tree boots `node dist/main.js`, answers /ping and passes the HEALTHCHECK", async () => {
      const build = join(root, "build");
      mkdirSync(build);
      for (const i of stage("build").instructions) {
        if (i.op === "COPY") for (const src of copyOf(i).sources) cpSync(join(ROOT, src), join(build, src), { recursive: true });
        if (i.op !== "RUN" || /apt-get/.test(i.args)) continue;
        if (/^npm ci\b/.test(i.args)) {
          // The real directory: a worktree's node_modules may be a symlink, and a copy of the link
          // would let the line below delete the file from the checkout it points to.
          execFileSync("cp", ["-al", realpathSync(join(ROOT, "node_modules")), join(build, "node_modules")]);
          // npm rewrites this one file; a copy, so the checkout's own stays as it was.
          rmSync(join(build, "node_modules", ".package-lock.json"));
          cpSync(join(ROOT, "node_modules", ".package-lock.json"), join(build, "node_modules", ".package-lock.json"));
          continue;
        }
        await sh(i.args, build);
      }

      const rt = join(root, "runtime");
      mkdirSync(rt);
      for (const i of stage("runtime").instructions.filter((x) => x.op === "COPY")) {
        const c = copyOf(i);
        for (const src of c.sources) {
          const from = c.from === "build" ? join(build, src.replace(/^\/app\//, "")) : join(ROOT, src);
          cpSync(from, join(rt, src.replace(/^\/app\//, "")), { recursive: true });
        }
      }
      // The lockfile marks what only development needs (a dev dependency a production one also needs is not).
      const locked = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")).packages as Record<string, { dev?: boolean }>;
      const devOnly = Object.keys(locked).filter((p) => p !== "" && locked[p].dev);
      expect(devOnly.length).toBeGreaterThan(100);
      expect(devOnly.filter((p) => existsSync(join(rt, p)))).toEqual([]);
      expect(existsSync(join(rt, "node_modules", "probot"))).toBe(true);
      // Only the sources, the benchmarks and the tests need these: the app never loads them.
      expect(["tsx", "esbuild", "js-tiktoken"].filter((p) => existsSync(join(rt, "node_modules", p)))).toEqual([]);
      // The fakes and the demo live outside src/ (test/fakes, demo/): nothing of them is built.
      const built = readdirSync(join(rt, "dist"), { recursive: true, encoding: "utf8" });
      expect(built.length).toBeGreaterThan(100);
      expect(built.filter((f) => /(^|\/)(demo|fakes?)(\/|\.|-|$)/.test(f))).toEqual([]);

      const port = await freePort();
      const { privateKey } = generateKeyPairSync("rsa", {
        modulusLength: 2048,
        privateKeyEncoding: { type: "pkcs8", format: "pem" },
        publicKeyEncoding: { type: "spki", format: "pem" },
      });
      const env = {
        PATH: process.env.PATH!,
        HOME: root,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        APP_ID: "12345",
        PRIVATE_KEY: privateKey,
        WEBHOOK_SECRET: "image-test-secret",
        OPENAI_API_KEY: "sk-image-test-0123456789",
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
        PATCHGATE_DATA_DIR: join(root, "data"),
        PATCHGATE_RECONCILE_MINUTES: "0",
      };
      const [cmd, ...args] = execForm(stage("runtime").instructions.find((i) => i.op === "CMD")!.args);
      app = spawn(cmd, args, { cwd: rt, env, stdio: ["ignore", "pipe", "pipe"] });
      await listening(app, port);
      const ping = await fetch(`http://127.0.0.1:${port}/ping`);
      expect([ping.status, await ping.text()]).toEqual([200, "PONG"]);
      const check = execForm(
        stage("runtime")
          .instructions.find((i) => i.op === "HEALTHCHECK")!
          .args.replace(/^.*?CMD\s+/, ""),
      );
      await expect(sh(check.map(quote).join(" "), rt, env)).resolves.toBeUndefined();
      app.kill("SIGKILL");
      booted = { rt, env };
    }, 600_000);

    test("as PID 1 of its own pid namespace, as in a container, the CMD stops on SIGTERM within 5 s", async () => {
      expect(booted).toBeDefined();
      const { rt, env } = booted!;
      const port = await freePort();
      const [cmd, ...args] = execForm(stage("runtime").instructions.find((i) => i.op === "CMD")!.args);
      // unshare forks the CMD as pid 1 of a new namespace and waits for it, as a container runtime does.
      const ns = spawn("unshare", ["--pid", "--fork", "--kill-child", "--mount-proc", cmd, ...args], {
        cwd: rt,
        env: { ...env, PORT: String(port) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      app = ns;
      await listening(ns, port);
      const pid1 = Number(readFileSync(`/proc/${ns.pid}/task/${ns.pid}/children`, "utf8").trim());
      expect(readFileSync(`/proc/${pid1}/status`, "utf8")).toMatch(/^NSpid:\s+\d+\s+1$/m);
      const exited = new Promise<number | null>((resolve) => ns.once("exit", (code) => resolve(code)));
      process.kill(pid1, "SIGTERM");
      const outcome = await Promise.race([exited, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 5_000))]);
      expect(outcome).toBe(0);
    }, 120_000);
  });
});

function sh(line: string, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile("sh", ["-c", line], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err, _out, stderr) =>
      err ? reject(new Error(`${line}: ${err.message}\n${stderr}`)) : resolve(),
    ),
  );
}

const quote = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resolves when Probot logs that it listens on `port`; rejects if the process ends first. */
function listening(p: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    const seen = (d: Buffer) => {
      out += d.toString();
      if (out.includes(`:${port}`)) resolve();
    };
    p.stdout!.on("data", seen);
    p.stderr!.on("data", seen);
    p.once("exit", (code) => reject(new Error(`the app exited (${code}) before listening:\n${out}`)));
  });
}
