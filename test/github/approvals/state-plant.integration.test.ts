import { startHarness, type Harness } from "../../harness/harness.js";
import { STORY_PERMISSIONS, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { openApiValidator } from "../../fakes/openapi-validator.js";
import { FORMATTED_ADD, PLANT_ROUTES, plantRepo } from "../../helpers/state-plant.js";

// The plants are allowed by the repository's own rules: they run at once, with no human asked.
const CONFIG = `test: sh test.sh\npolicy:\n  allow_commands:\n${PLANT_ROUTES.map((r) => `    - node plant.js ${r}\n`).join("")}`;
const FILES = plantRepo(CONFIG);

const script = () => [
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "Format src/add.js.", steps: ["Run the formatter", "Run the tests"] } }] },
  ...PLANT_ROUTES.map((route) => ({ toolCalls: [{ name: "run_command", arguments: { argv: ["node", "plant.js", route] } }] })),
  { toolCalls: [{ name: "run_command", arguments: { argv: ["npm", "run", "fmt"] } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "src/add.js formatted; the tests pass." } }] },
];

/**
 * End to end on the fake GitHub: commands the repository's rules allow plant state where a later
 * command looks (HOME dotfiles, package-manager config, git config of a nested repository, tool
 * caches, /tmp); then a maintainer approves the formatter by comment and the tests run. Whatever the
 * plants left, the pushed commit is the base plus the formatter's change.
 */
describe("app: state planted by allowed commands never reaches an approved command", () => {
  let h: Harness;
  afterEach(() => h.close());

  test("every planting route, then the formatter approved by comment and the tests: the pushed tree is exactly base + the formatter's change", async () => {
    h = await startHarness({ script: script(), files: FILES, permissions: STORY_PERMISSIONS, validate: openApiValidator });
    h.github.world.files.set(".github/patchgate.yml", CONFIG);
    await storySteps.ask(h);
    await storySteps.approvePlan(h);

    const ledger = async () => Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);
    const parked = await ledger();
    expect(parked.state.phase).toBe("awaiting_write_approval");
    expect(parked.state.pending?.calls.map((c) => [c.tool, c.input])).toEqual([["run_command", { argv: ["npm", "run", "fmt"] }]]);
    // Each plant ran unasked, and wrote: the routes were open to the command that used them.
    const plants = parked.history.filter((e) => e.type === "tool_result" && e.tool === "run_command");
    expect(plants.map((e) => (e.type === "tool_result" ? e.result : null))).toEqual(
      PLANT_ROUTES.map((route) => expect.objectContaining({ ok: true, data: expect.objectContaining({ exit_code: 0, stdout: `planted-${route}\n` }) })),
    );

    await storySteps.approveWrites(h);
    const done = await ledger();
    expect(done.state.phase).toBe("done");
    expect(readBranch(h.bare, "patchgate/issue-1")!.files).toEqual({ ...FILES, "src/add.js": FORMATTED_ADD });
    expect(h.app.errors).toEqual([]);
  }, 180_000);
});
