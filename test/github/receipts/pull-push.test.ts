import { createRequire } from "node:module";
import { pullPushOf } from "../../../src/github/inbound/pull-push.js";

/** `pull_request` pushes from GitHub's own example payloads (@octokit/webhooks-examples). */
const require = createRequire(import.meta.url);
// Read field by field and edited per test: a payload is loose JSON here.
type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const groups = require("@octokit/webhooks-examples") as { name: string; examples: Payload[] }[];
const example = (action: string) => structuredClone(groups.find((g) => g.name === "pull_request")!.examples.find((e) => e.action === action)!);

describe("pullPushOf", () => {
  test("synchronize: the repository by ids, the PR, its new head and branch", () => {
    const p = example("synchronize");
    expect(pullPushOf("d1", "pull_request.synchronize", p)).toEqual({
      kind: "pull_pushed",
      id: "d1",
      repo: {
        id: p.repository.id,
        owner: p.repository.owner.login,
        repo: p.repository.name,
        defaultBranch: p.repository.default_branch,
        installationId: p.installation.id,
      },
      pull: p.pull_request.number,
      head: p.after,
      headRef: p.pull_request.head.ref,
    });
  });

  test("a push by a bot is judged too: nothing is obeyed", () => {
    const p = example("synchronize");
    p.sender = { ...p.sender, login: "patchgate[bot]", type: "Bot" };
    expect(pullPushOf("d2", "pull_request.synchronize", p)?.pull).toBe(p.pull_request.number);
  });

  test("a PR from a fork, and other actions, are not this job's", () => {
    const p = example("synchronize");
    p.pull_request.head.repo = { ...p.pull_request.head.repo, id: p.repository.id + 1 };
    expect(pullPushOf("d3", "pull_request.synchronize", p)).toBeNull();
    expect(pullPushOf("d4", "pull_request.labeled", example("labeled"))).toBeNull();
  });

  test("a payload without its pull request is a malformed delivery, named", () => {
    const p = example("synchronize");
    delete p.pull_request;
    expect(() => pullPushOf("d5", "pull_request.synchronize", p)).toThrow(/d5/);
  });
});
