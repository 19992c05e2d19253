import type { AppContext } from "../deps.js";
import type { PullPush } from "../inbound/pull-push.js";
import { authFor, freshGitToken, remoteUrl } from "../outbound/git-remote.js";
import { receiptChecker } from "./receipt-checker.js";
import { postReceiptStatus } from "./receipt-status.js";
import { trustedKeys } from "../receipt-settings.js";

/**
 * A PR push's job: the `patchgate/receipt` status of a PR Patchgate opened (the session index knows
 * it by installation and repository id), judged with this deployment's keys. A PR of anyone else, or
 * a deployment without receipts, is left alone.
 */
export async function runReceiptStatus(a: AppContext, push: PullPush): Promise<void> {
  const receipts = a.deps.receipts;
  if (!receipts) return;
  if ((await a.index.issueOfPull(push.repo, push.pull)) === null) {
    a.deps.log(`#${push.pull} is not a pull request Patchgate opened; no receipt status`);
    return;
  }
  const octokit = await a.installation(push.repo.installationId);
  const token = await freshGitToken(await a.appOctokit(), push.repo);
  const app = await a.identity.get(octokit);
  await postReceiptStatus(
    {
      octokit,
      dir: receipts.dir,
      url: remoteUrl(a.deps.gitBase, push.repo),
      auth: authFor(token),
      appLogin: app.name,
      check: receiptChecker(trustedKeys(receipts.keys), [app.name]),
      log: (line) => a.deps.log(line),
    },
    push,
  );
}
