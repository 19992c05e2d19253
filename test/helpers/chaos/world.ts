import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { branchHead, createBareRepo } from "../../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { STORY_FILES, STORY_PERMISSIONS } from "../../harness/story.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../fakes/chat/server.js";
import { tempDir } from "../git-fixture.js";
import { chaosModel, chaosTitle, type ChaosModelHooks } from "./model.js";

/**
 * What a chaos test runs against: one repository on the fake GitHub with a test script a test can
 * hold (it waits while `.git/chaos-hold` exists in the clone, after copying it to `.chaos-running`), the
 * chaos model on the fake provider, and `issues` open issues. Each process of the app under test
 * has a disk of its own under `root/<name>` (its clones); the sessions' ids are read from the markers
 * of the comments they post, as anyone reading the issue could.
 */
export const OWNER = "octo-org";
export const REPO = "calculator";
export const HOLD = "chaos-hold";
export const RUNNING = ".chaos-running";
const TEST_SH = `if [ -e .git/${HOLD} ]; then cp .git/${HOLD} ${RUNNING}; while [ -e .git/${HOLD} ]; do sleep 0.05; done; fi
grep -q "a + b" src/add.js || { echo "FAIL: add() subtracts"; exit 1; }
echo ok
`;

export class ChaosWorld {
  private constructor(
    readonly root: string,
    readonly bare: string,
    readonly github: FakeGitHub,
    readonly openai: FakeOpenAIServer,
    readonly payloads: Payloads,
    readonly issues: number[],
  ) {}

  static async create(issues: number, model: () => ChaosModelHooks): Promise<ChaosWorld> {
    const root = tempDir("pg-chaos-");
    const files = { "src/add.js": STORY_FILES["src/add.js"], "test.sh": TEST_SH, ".github/patchgate.yml": "test: sh test.sh\n" };
    const bare = createBareRepo(join(root, "remote"), OWNER, REPO, files);
    const github = await startFakeGitHub({ owner: OWNER, repo: REPO, gitRoot: join(root, "remote") });
    for (const [login, role] of Object.entries(STORY_PERMISSIONS)) github.world.permissions.set(login, role);
    github.world.files.set(".github/patchgate.yml", files[".github/patchgate.yml"]);
    github.world.everyTokenValid = true; // each process holds its own installation token
    const openai = await startFakeOpenAI(chaosModel(model));
    const payloads = new Payloads(github.world);
    payloads.headSha = (branch) => branchHead(bare, branch) ?? "0".repeat(40);
    const numbers = Array.from({ length: issues }, (_, i) => i + 1);
    return new ChaosWorld(root, bare, github, openai, payloads, numbers);
  }

  /** The comment that asks for issue `n`'s session (built up front: issues and PRs share numbers). */
  askFor(n: number): Record<string, unknown> {
    return this.payloads.comment({ number: n, title: chaosTitle(n), issueBody: "`add(2, 3)` returns -1.", body: "/agent fix this", by: "maintainer" });
  }

  disk(name: string): string {
    return join(this.root, name);
  }

  branch(issue: number): string {
    return `patchgate/issue-${issue}`;
  }

  pull(issue: number) {
    return this.github.world.pulls.find((p) => p.head.ref === this.branch(issue));
  }

  /** The bot's comments on the issue and on its PR. */
  botComments(issue: number) {
    const pr = this.pull(issue)?.number;
    return this.github.world.comments.filter((c) => c.user.type === "Bot" && (c.issue_number === issue || c.issue_number === pr));
  }

  /** The session of issue `n`, from the marker of a comment it posted. */
  sessionOf(issue: number): string | null {
    for (const c of this.botComments(issue)) {
      const m = /<!-- patchgate:([0-9a-f-]{36}):/.exec(c.body);
      if (m) return m[1];
    }
    return null;
  }

  /** The session's clones on every disk (a clone a dead worker left behind included). */
  clonesOf(sessionId: string): string[] {
    return readdirSync(this.root)
      .map((d) => join(this.root, d, "workspaces", sessionId))
      .filter((dir) => existsSync(join(dir, ".git")));
  }

  async close(): Promise<void> {
    await this.openai.close();
    await this.github.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}
