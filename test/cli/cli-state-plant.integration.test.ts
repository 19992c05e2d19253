import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { cliSessions } from "../helpers/cli-sessions.js";
import { cli } from "../helpers/run-cli.js";
import { FORMATTED_ADD, plantRepo, type PlantRoute } from "../helpers/state-plant.js";

/** Every route, each in one of the forms the tool accepts (argv, sh -c, bash -c, env bash -c). */
const PLANTS: { route: PlantRoute; argv: string[] }[] = [
  { route: "npmrc", argv: ["node", "plant.js", "npmrc"] },
  { route: "pip", argv: ["sh", "-c", "node plant.js pip"] },
  { route: "dotfiles", argv: ["bash", "-c", "node plant.js dotfiles"] },
  { route: "nested", argv: ["env", "bash", "-c", "node plant.js nested"] },
  { route: "caches", argv: ["node", "plant.js", "caches"] },
];

/**
 * A command the model chose writes where a later, approved command looks; then a maintainer approves
 * the formatter. Whatever the plants are, the published tree is the base plus the formatter's change.
 */
describe("patchgate run: state planted by commands never reaches an approved command", () => {
  const sessions = cliSessions();

  test("every planting route, then the approved formatter and tests: the published tree is exactly base + the formatter's change", async () => {
    const { repo, data, server, env } = await sessions.start(
      [
        { toolCalls: [{ name: "submit_plan", arguments: { summary: "format add.js", steps: ["run the formatter", "run tests"] } }] },
        ...PLANTS.map(({ argv }) => ({ toolCalls: [{ name: "run_command", arguments: { argv } }] })),
        { toolCalls: [{ name: "run_command", arguments: { argv: ["npm", "run", "fmt"] } }] },
        { toolCalls: [{ name: "run_tests", arguments: {} }] },
        { toolCalls: [{ name: "finish", arguments: { summary: "formatted" } }] },
      ],
      { files: plantRepo(), prefix: "pg-cli-plant-" },
    );
    const r = await cli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "Format src/add.js"], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(server.remaining()).toBe(0);
    // Each plant did write: the routes were open to the command that used them.
    for (const { route } of PLANTS) expect(r.stdout).toContain(`planted-${route}`);
    const sessionId = /session (\S+)/.exec(r.stdout)![1]!;
    const clone = join(data, "workspaces", sessionId);
    const branch = `patchgate/${sessionId.slice(0, 8)}`;
    const git = (...args: string[]) => execFileSync("git", ["-C", clone, ...args], { encoding: "utf8" });
    expect(git("diff", "--name-only", `main`, branch)).toBe("src/add.js\n");
    expect(git("show", `${branch}:src/add.js`)).toBe(FORMATTED_ADD);
  }, 180_000);
});
