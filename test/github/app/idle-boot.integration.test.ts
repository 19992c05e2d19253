import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/**
 * An idle app loads only what takes a delivery (issue 15: idle RSS ≤ 1.2× a bare Probot app).
 * What runs sessions, and what is only for a configuration this boot does not have, is loaded at
 * its first use: the PostgreSQL driver and pg-boss (DATABASE_URL), the MCP SDK (PATCHGATE_MCP_CONFIG,
 * and a session), the OpenTelemetry SDK and exporter (OTEL_EXPORTER_OTLP_ENDPOINT), the model's SDK,
 * the schema library and the agent itself. The app is booted for real, in its own process, with
 * module hooks recording every module it resolves.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));
const NOT_AT_IDLE = [
  /\/node_modules\/pg\//,
  /\/node_modules\/pg-boss\//,
  /\/node_modules\/@modelcontextprotocol\//,
  /\/node_modules\/@opentelemetry\/(sdk-trace-base|exporter-trace-otlp-http|resources)\//,
  /\/node_modules\/openai\//,
  /\/node_modules\/zod\//,
  /\/node_modules\/prom-client\//,
  /\/src\/agent\/run-session\.ts$/,
  /\/src\/github\/session-work\/jobs\.ts$/,
];

async function bootedModules(env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "pg-idle-boot-"));
  try {
    const loaded = join(dir, "loaded.txt");
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "--import", join(root, "test/fakes/module-recorder.mjs"), join(root, "test/fakes/idle-app.ts")],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: dir,
          PATCHGATE_DATA_DIR: join(dir, "data"),
          PATCHGATE_RECONCILE_MINUTES: "0",
          PATCHGATE_TEST_LOADED: loaded,
          ...env,
        },
        timeout: 50_000,
      },
    );
    expect(stdout).toContain("idle");
    return readFileSync(loaded, "utf8").split("\n").filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the idle app", () => {
  it("loads none of what sessions or absent configuration need", async () => {
    const loaded = await bootedModules({});
    expect(loaded.some((u) => u.endsWith("/src/github/inbound/inbox.ts"))).toBe(true);
    expect(loaded.filter((u) => NOT_AT_IDLE.some((re) => re.test(u)))).toEqual([]);
  });

  it("loads the OpenTelemetry exporter when an endpoint is configured (the recorder sees what is loaded)", async () => {
    const loaded = await bootedModules({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(loaded.some((u) => /\/node_modules\/@opentelemetry\/exporter-trace-otlp-http\//.test(u))).toBe(true);
  });
});
