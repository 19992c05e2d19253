import { makeReceipt } from "../../receipt/make-receipt.js";
import { RECEIPT_NOTES_REF, writeReceiptNote } from "../../receipt/notes.js";
import { receiptDigest } from "../../receipt/verify-commit.js";
import type { Ledger } from "../../store/ledger.js";
import { git, gitOk } from "../../workspace/git.js";
import type { PushableWorkspace, SessionWork } from "../deps.js";
import { authFor, remoteUrl } from "./git-remote.js";
import { NOTES_REF, pushReceiptNote } from "./receipt-note.js";

/**
 * The receipt of a commit the app publishes (plan or result), before the branch moves to it: built
 * from the ledger, signed with the deployment's key, recorded in the ledger (`receipt_recorded`)
 * before it leaves, then written as the commit's note on GitHub (./receipt-note.ts). `local` is the
 * clone's twin of `commit` (GitHub's signed commit is not fetched yet): same parent, same tree, so
 * what the commit changes is read from it. A publication that runs again finds it recorded and
 * pushes the same note, which changes nothing when it is there already. A follow-up's receipt names the
 * receipt of the commit it builds on: from this ledger, or from the note GitHub holds for that commit.
 */
const REMOTE_NOTES = "refs/patchgate/remote-notes";

export async function publishReceipt(
  jc: SessionWork,
  ledger: Ledger,
  ws: PushableWorkspace,
  commit: string,
  kind: "plan" | "result",
  local: string = commit,
): Promise<void> {
  const receipts = jc.deps.receipts;
  if (!receipts) return;
  const recorded = recordedEnvelope(ledger, commit);
  let envelope = recorded;
  if (envelope === null) {
    const made = await makeReceipt(
      {
        state: ledger.state,
        events: ledger.history,
        kind,
        commit,
        repository: `${jc.delivery.repo.owner}/${jc.delivery.repo.repo}`,
        version: receipts.version,
        ledgerHead: await ledger.head(),
        secrets: jc.deps.secrets,
        gitDir: ws.root,
        keys: receipts.keys,
      },
      { twin: local, parentReceipt: (parent) => previousReceipt(jc, ledger, ws, parent), trailingNewline: false },
    );
    envelope = made.envelopeJson;
    await ledger.append({ type: "receipt_recorded", commit, kind, digest: made.digest, envelope });
  }
  try {
    const pushed = await pushReceiptNote(jc.octokit, jc.delivery.repo, commit, envelope);
    jc.deps.log(`receipt of ${commit.slice(0, 7)} ${pushed === "unchanged" ? "already on GitHub" : "pushed as a note"}`);
  } catch (e) {
    // As for the commit itself (./signed-push.ts): a GitHub without the Git Data API gets the note by git.
    const s = (e as { status?: number }).status;
    if (s !== 403 && s !== 404 && s !== 501) throw e;
    await pushNoteWithGit(jc, ws, commit, envelope);
    jc.deps.log(`receipt of ${commit.slice(0, 7)} pushed as a note with git (the Git Data API answered ${s})`);
  }
}

const GIT_ATTEMPTS = 5;

/**
 * The note added on top of the remote's notes (fetched first) and pushed without force: a notes ref
 * someone moved meanwhile refuses the push, and it is fetched and written again.
 */
async function pushNoteWithGit(jc: SessionWork, ws: PushableWorkspace, commit: string, envelope: string): Promise<void> {
  const url = remoteUrl(jc.deps.gitBase, jc.delivery.repo);
  const auth = authFor(jc.token);
  for (let attempt = 1; ; attempt++) {
    const there = await fetchRemoteNotes(jc, ws);
    if (there) await gitOk(["update-ref", RECEIPT_NOTES_REF, there], { cwd: ws.root });
    else await git(["update-ref", "-d", RECEIPT_NOTES_REF], { cwd: ws.root });
    await writeReceiptNote(ws.root, commit, envelope);
    const r = await git(["push", "--quiet", "--", url, `${RECEIPT_NOTES_REF}:${RECEIPT_NOTES_REF}`], { cwd: ws.root, auth });
    if (r.exitCode === 0) return;
    if (attempt >= GIT_ATTEMPTS) throw new Error(`the receipt note of ${commit.slice(0, 7)} could not be pushed: ${r.stderr.trim().split("\n")[0]}`);
  }
}

/** The remote's notes head, fetched into the clone beside its own (null: the remote has none yet). */
async function fetchRemoteNotes(jc: SessionWork, ws: PushableWorkspace): Promise<string | null> {
  // A glob: a repository without notes yet is no error.
  await gitOk(["fetch", "--quiet", "--no-write-fetch-head", "--", remoteUrl(jc.deps.gitBase, jc.delivery.repo), `+refs/notes/*:${REMOTE_NOTES}/*`], {
    cwd: ws.root,
    auth: authFor(jc.token),
  });
  const r = await git(["rev-parse", "--verify", "--quiet", `${REMOTE_NOTES}/${NOTES_REF.slice("refs/notes/".length)}`], { cwd: ws.root });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

function recordedEnvelope(ledger: Ledger, commit: string): string | null {
  for (const e of ledger.history) if (e.type === "receipt_recorded" && e.commit === commit) return e.envelope;
  return null;
}

/** The digest of the receipt of `parent`: recorded by this session, or the note GitHub holds (fetched into the clone). */
async function previousReceipt(jc: SessionWork, ledger: Ledger, ws: PushableWorkspace, parent: string): Promise<string | null> {
  const here = recordedEnvelope(ledger, parent);
  if (here !== null) return receiptDigest(here);
  if ((await fetchRemoteNotes(jc, ws)) === null) return null;
  const note = await git(["notes", `--ref=${REMOTE_NOTES}/${NOTES_REF.slice("refs/notes/".length)}`, "show", parent], { cwd: ws.root });
  return note.exitCode === 0 ? receiptDigest(note.stdout) : null;
}
