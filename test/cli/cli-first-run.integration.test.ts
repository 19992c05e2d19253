import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { closedPort } from "../helpers/closed-port.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";
import { cli, ROOT } from "../helpers/run-cli.js";

const STACK = /\n\s+at /;
const BLOCK = [{ toolCalls: [{ name: "report_blocked", arguments: { reason: "stop here" } }] }];

async function sessions(data: string): Promise<{ id: string; repo: string }[]> {
  if (!existsSync(join(data, "patchgate.sqlite"))) return [];
  const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
  try {
    const out = [];
    for (const s of await store.list()) {
      const [first] = await store.load(s.id);
      out.push({ id: s.id, repo: first.type === "session_created" ? first.task.source.repo : "" });
    }
    return out;
  } finally {
    await store.close();
  }
}

describe("patchgate run: the first run says what is wrong before any work starts", () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const c of cleanups.splice(0)) c();
  });
  const setup = () => {
    const repo = makeRepo(BUGGY_ADD_REPO);
    const data = tempDir("pg-first-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    return { repo, data };
  };

  test("--version prints the package's name and version", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    const r = await cli(["--version"], {});
    expect(r).toEqual({ code: 0, stdout: `patchgate ${pkg.version}\n`, stderr: "" });
  });

  test("an endpoint nobody listens on is one line naming the URL and ECONNREFUSED, and no session is created", async () => {
    const { repo, data } = setup();
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await cli(["run", "--repo", repo.dir, "task"], { OPENAI_API_KEY: "sk-first", OPENAI_BASE_URL: base, PATCHGATE_DATA_DIR: data });
    expect(r).toEqual({ code: 1, stdout: "", stderr: `patchgate: cannot connect to ${base}/models (ECONNREFUSED); check OPENAI_BASE_URL\n` });
    expect(await sessions(data)).toEqual([]);
  });

  test("a model the endpoint does not list is one line naming it and what it lists, before a session exists", async () => {
    const { repo, data } = setup();
    server = await startFakeOpenAI(BLOCK, { models: ["llama3:latest", "qwen3"] });
    const env = { OPENAI_API_KEY: "sk-first", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data };
    const r = await cli(["run", "--repo", repo.dir, "--model", "gpt-5-typo", "task"], env);
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr: `patchgate: model "gpt-5-typo" is not served by ${server.baseURL} (it lists: llama3:latest, qwen3); set --model or PATCHGATE_MODEL\n`,
    });
    expect(await sessions(data)).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  test("a key the endpoint refuses is one line, before a session exists", async () => {
    const { repo, data } = setup();
    server = await startFakeOpenAI(BLOCK, { apiKey: "sk-right" });
    const r = await cli(["run", "--repo", repo.dir, "task"], { OPENAI_API_KEY: "sk-wrong", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`patchgate: ${server.baseURL}/models refused the key (HTTP 401: Incorrect API key provided.); check OPENAI_API_KEY\n`);
    expect(await sessions(data)).toEqual([]);
  });

  test("--repo <repo>/sub works on the repository it is in, and says so", async () => {
    const { repo, data } = setup();
    server = await startFakeOpenAI(BLOCK);
    const env = { OPENAI_API_KEY: "sk-first", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await cli(["run", "--repo", join(repo.dir, "src"), "task"], env);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain(`--repo ${join(repo.dir, "src")} is inside the repository ${repo.dir}: the session works on all of it\n`);
    expect(r.stdout).toContain("blocked: stop here");
    expect((await sessions(data)).map((s) => s.repo)).toEqual([repo.dir]);
  });

  test("--repo <repo>/.git is refused in one line", async () => {
    const { repo, data } = setup();
    const r = await cli(["run", "--repo", join(repo.dir, ".git"), "task"], { OPENAI_API_KEY: "sk-first", PATCHGATE_DATA_DIR: data });
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: `patchgate: --repo ${join(repo.dir, ".git")}: not inside a work tree (give the repository's folder, not its .git)\n`,
    });
  });

  test("a clone that fails prints git's error once", async () => {
    const { data } = setup();
    server = await startFakeOpenAI(BLOCK);
    const url = `http://127.0.0.1:${await closedPort()}/nothing.git`;
    const env = { OPENAI_API_KEY: "sk-first", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await cli(["run", "--repo", url, "task"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^patchgate: session \S+ failed: git clone failed \(exit 128\): fatal: [^\n]+\n$/);
    expect(r.stderr.match(/fatal:/g)).toHaveLength(1);
    expect(r.stdout.match(/fatal:/g)).toHaveLength(1);
  });

  test("the CLI reads .env from where it is started, as the app does", async () => {
    const { repo, data } = setup();
    server = await startFakeOpenAI(BLOCK);
    const cwd = tempDir("pg-dotenv-");
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    writeFileSync(
      join(cwd, ".env"),
      `OPENAI_API_KEY=sk-from-dotenv\nOPENAI_BASE_URL=${server.baseURL}\nPATCHGATE_DATA_DIR=${data}\nPATCHGATE_MODEL=fake-model\n`,
    );
    const r = await cli(["run", "--repo", repo.dir, "task"], {}, cwd);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("blocked: stop here");
    expect(server.requests[0].authorization).toBe("Bearer sk-from-dotenv");
    expect(await sessions(data)).toHaveLength(1);
  });

  test("a bad variable in .env is one line naming it, never a stack trace", async () => {
    const { repo, data } = setup();
    const cwd = tempDir("pg-dotenv-");
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    writeFileSync(join(cwd, ".env"), `OPENAI_API_KEY=sk-from-dotenv\nPATCHGATE_LLM_RETRIES=lots\nPATCHGATE_DATA_DIR=${data}\n`);
    const r = await cli(["run", "--repo", repo.dir, "task"], {}, cwd);
    expect(r).toEqual({ code: 2, stdout: "", stderr: `patchgate: PATCHGATE_LLM_RETRIES must be a whole number ≥ 0, got "lots"\n` });
    expect(r.stderr).not.toMatch(STACK);
  });
});
