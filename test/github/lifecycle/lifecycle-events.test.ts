import { createRequire } from "node:module";
import { lifecycleOf } from "../../../src/github/inbound/lifecycle-events.js";
import { MalformedWebhookError } from "../../../src/github/inbound/malformed-webhook.js";

/** GitHub's own example payloads (@octokit/webhooks-examples), read as the app reads them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read field by field, like the parser under test
const examples = createRequire(import.meta.url)("@octokit/webhooks-examples") as { name: string; examples: Record<string, any>[] }[];
const example = (event: string, action: string) => structuredClone(examples.find((g) => g.name === event)!.examples.find((e) => e.action === action)!);

describe("lifecycle events from GitHub's example payloads", () => {
  test("installation.deleted: the installation, its account and who uninstalled", () => {
    const p = example("installation", "deleted");
    expect(lifecycleOf("d1", "installation.deleted", p)).toEqual({
      kind: "uninstalled",
      installationId: p.installation.id,
      account: p.installation.account.login,
      by: p.sender.login,
    });
  });

  test("installation_repositories.removed: each repository by id and name", () => {
    const p = example("installation_repositories", "removed");
    const e = lifecycleOf("d2", "installation_repositories.removed", p);
    expect(e).toEqual({
      kind: "repositories_removed",
      installationId: p.installation.id,
      repos: p.repositories_removed.map((r: { id: number; full_name: string }) => ({ id: r.id, fullName: r.full_name })),
      by: p.sender.login,
    });
  });

  test("repository.renamed: where it is now, and its old name", () => {
    const p = example("repository", "renamed");
    p.installation = { id: 77 };
    const e = lifecycleOf("d3", "repository.renamed", p);
    expect(e).toMatchObject({
      kind: "moved",
      how: "renamed",
      repo: { id: p.repository.id, owner: p.repository.owner.login, repo: p.repository.name, installationId: 77 },
      from: `${p.repository.owner.login}/${p.changes.repository.name.from}`,
    });
  });

  test("repository.transferred: the old owner, a user or an organization", () => {
    const p = example("repository", "transferred");
    p.installation = { id: 77 };
    const e = lifecycleOf("d4", "repository.transferred", p);
    expect(e).toMatchObject({ kind: "moved", how: "transferred", from: `${p.changes.owner.from.user.login}/${p.repository.name}` });
    p.changes.owner.from = { organization: { login: "old-org" } };
    expect(lifecycleOf("d4", "repository.transferred", p)).toMatchObject({ from: `old-org/${p.repository.name}` });
  });

  test("other events are not lifecycle events", () => {
    expect(lifecycleOf("d5", "issues.opened", example("issues", "opened"))).toBeNull();
    expect(lifecycleOf("d6", "installation.created", example("installation", "created"))).toBeNull();
  });

  test.each([
    ["installation.deleted", () => ({ ...example("installation", "deleted"), installation: undefined })],
    [
      "installation_repositories.removed",
      () => ({ ...example("installation_repositories", "removed"), repositories_removed: [{ id: "1", full_name: "a/b" }] }),
    ],
    ["repository.renamed", () => ({ ...example("repository", "renamed"), installation: { id: 77 }, changes: {} })],
  ])("a malformed %s is a typed error naming the delivery", (name, payload) => {
    const run = () => lifecycleOf("bad-1", name, payload());
    expect(run).toThrow(MalformedWebhookError);
    expect(run).toThrow(/bad-1/);
  });
});
