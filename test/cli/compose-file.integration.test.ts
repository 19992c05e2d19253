import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { ROOT, runCli } from "../helpers/cli-process.js";

/**
 * deploy/docker-compose.yml cannot run here (no Docker engine), so what can be checked is checked:
 * the services and their wiring, that each command it runs is a real `patchgate` command (run with
 * --help through the same bin), and that every variable it sets is one the documentation (docs/) names.
 */
interface Service {
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  build?: string;
}
const compose = parse(readFileSync(join(ROOT, "deploy/docker-compose.yml"), "utf8"), { merge: true }) as { services: Record<string, Service> };
const docs = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => readFileSync(join(ROOT, "docs", f), "utf8"))
  .join("\n");

test("PostgreSQL, one receiver and several workers, both built from this repository and waiting for the database", () => {
  const { postgres, receiver, worker } = compose.services;
  expect(Object.keys(compose.services).sort()).toEqual(["postgres", "receiver", "worker"]);
  expect(worker.deploy?.replicas).toBeGreaterThanOrEqual(2);
  for (const s of [receiver, worker]) {
    expect(s.build).toBe("..");
    expect(s.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    const url = new URL(s.environment!.DATABASE_URL);
    expect([url.protocol, url.hostname, url.username, url.password, url.pathname]).toEqual([
      "postgres:",
      "postgres",
      postgres.environment!.POSTGRES_USER,
      postgres.environment!.POSTGRES_PASSWORD,
      `/${postgres.environment!.POSTGRES_DB}`,
    ]);
  }
});

test.each(["receiver", "worker"])("the %s's command is a patchgate command that exists", async (name) => {
  const [node, bin, command, ...rest] = compose.services[name].command!;
  expect([node, bin, rest]).toEqual(["node", "bin/patchgate.js", []]);
  const r = await runCli([command, "--help"], {});
  expect([r.code, r.stderr]).toEqual([0, ""]);
  expect(r.stdout).toMatch(new RegExp(`^usage: patchgate ${command} `));
});

test("every variable the services set is documented in docs/", () => {
  const names = new Set(
    Object.values(compose.services)
      .flatMap((s) => Object.keys(s.environment ?? {}))
      .filter((n) => !n.startsWith("POSTGRES_")),
  );
  for (const n of names) expect(docs.includes(`\`${n}\``) ? n : `${n} (undocumented)`).toBe(n);
  expect([...names]).toEqual(expect.arrayContaining(["DATABASE_URL", "PATCHGATE_WORKER_SLOTS", "APP_ID"]));
});
