import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeStep } from "../fakes/chat/turns.js";
import { cliSessions } from "../helpers/cli-sessions.js";
import { runCli } from "../helpers/cli-process.js";
import { compiledApp } from "../helpers/compiled-app.js";
import { signEnvelope, type Envelope } from "../../src/receipt/envelope.js";
import { keyIdOf } from "../../src/receipt/key-id.js";
import { RECEIPT_NOTES_REF } from "../../src/receipt/notes.js";
import { loadSigningKeys } from "../../src/receipt/signing-key.js";
import type { ReceiptStatement } from "../../src/receipt/statement.js";
import { generateKeyPairSync } from "node:crypto";

const ROOT = join(import.meta.dirname, "../..");
const NOTES = RECEIPT_NOTES_REF;
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "user.name=Maintainer", "-c", "user.email=m@example.invalid", ...args], {
    cwd: dir,
    encoding: "utf8",
  }).trim();

/** The model's side of a session that fixes BUGGY_ADD_REPO and publishes the fix. */
const FIX_ADD: FakeStep[] = [
  { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
  { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
];

/** The real CLI under a pseudo-terminal (`script`), a person typing `y` at each prompt as it appears. */
async function runApprovedAtTerminal(repo: string, env: Record<string, string>): Promise<{ code: number | null; screen: string }> {
  const main = join(await compiledApp(), "src/cli/main.js");
  const child = spawn("script", ["-qfec", `node ${main} run --repo ${repo} "Fix add"`, "/dev/null"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  const prompts = ["Approve this plan?", "Allow these changes?"];
  let screen = "";
  child.stdout.on("data", (b: Buffer) => {
    screen += b.toString();
    if (prompts.length > 0 && screen.includes(prompts[0])) {
      prompts.shift();
      child.stdin.write("y\n");
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, screen };
}

function readStatement(dir: string, commit: string): { envelope: Envelope; statement: ReceiptStatement } {
  const envelope = JSON.parse(git(dir, "notes", `--ref=${NOTES}`, "show", commit)) as Envelope;
  return { envelope, statement: JSON.parse(Buffer.from(envelope.payload, "base64").toString("utf8")) as ReceiptStatement };
}

function writeNote(dir: string, commit: string, envelope: Envelope): void {
  execFileSync("git", ["-c", "user.name=X", "-c", "user.email=x@example.invalid", "notes", `--ref=${NOTES}`, "add", "-f", "-F", "-", commit], {
    cwd: dir,
    input: JSON.stringify(envelope),
  });
}

describe("patchgate verify on a fresh clone of a CLI session's result", () => {
  const sessions = cliSessions();

  test("passes as published, and fails naming the reason for each kind of tampering", async () => {
    const scratch = sessions.tempDir("pg-receipt-clones-");
    const { repo, data, env } = await sessions.start(FIX_ADD, { prefix: "pg-receipt-", key: "sk-receipt-test-key" });
    const run = await runApprovedAtTerminal(repo, env);
    expect(run.code).toBe(0);
    const sessionId = /session (\S+)/.exec(run.screen)![1];
    const clone = join(data, "workspaces", sessionId);
    const branch = `patchgate/${sessionId.slice(0, 8)}`;
    const commit = git(clone, "rev-parse", branch);

    // The published commit carries its note, and the ledger records the receipt.
    const { statement } = readStatement(clone, commit);
    expect(statement.subject).toEqual([{ name: `git+${repo}`, digest: { gitCommit: commit } }]);
    expect(statement.predicate.paths.map((p) => p.path)).toEqual(["src/add.js"]);
    expect(statement.predicate.plan?.approvedBy).toMatchObject({ login: "cli", via: "cli" });
    const events = await runCli(["show", sessionId, "--events"], { PATCHGATE_DATA_DIR: data });
    expect(events.stdout).toContain("receipt_recorded");

    // What a verifier gets: the public keys, and a plain clone with the notes ref fetched.
    const keys = await runCli(["keys", "--json"], { PATCHGATE_DATA_DIR: data });
    expect(keys.code).toBe(0);
    expect(keys.stdout).not.toContain("PRIVATE");
    const keyFile = join(scratch, "keys.json");
    writeFileSync(keyFile, keys.stdout);
    const fresh = join(scratch, "fresh");
    git(scratch, "clone", "-q", "--branch", branch, clone, fresh);
    git(fresh, "fetch", "-q", "origin", `${NOTES}:${NOTES}`);
    const verify = (dir: string, rev: string, ...more: string[]) => runCli(["verify", rev, "--repo", dir, "--key", keyFile, ...more], {});

    const ok = await verify(fresh, commit);
    expect([ok.code, ok.stdout, ok.stderr]).toEqual([0, `${commit.slice(0, 12)}: ok, signed by ${JSON.parse(keys.stdout).current}\n`, ""]);
    const json = await verify(fresh, `${commit}~1..${commit}`, "--json");
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, commits: [{ commit, keyId: JSON.parse(keys.stdout).current, findings: [] }] });

    // (a) A file of the commit changed and the commit amended by a bot: the new commit has no receipt,
    // and the old receipt copied onto it names another commit.
    writeFileSync(join(fresh, "src/add.js"), "export function add(a, b) {\n  return a + b + 1;\n}\n");
    execFileSync("git", ["-c", "core.hooksPath=/dev/null", "commit", "-q", "-a", "--amend", "--reset-author", "--no-edit"], {
      cwd: fresh,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "helper[bot]",
        GIT_AUTHOR_EMAIL: "bot@example.invalid",
        GIT_COMMITTER_NAME: "helper[bot]",
        GIT_COMMITTER_EMAIL: "bot@example.invalid",
      },
    });
    const amended = git(fresh, "rev-parse", "HEAD");
    const a = await verify(fresh, amended);
    expect([a.code, a.stdout]).toEqual([
      1,
      `no_receipt: ${amended.slice(0, 12)}: no receipt (author helper[bot] <bot@example.invalid>, committer helper[bot] <bot@example.invalid>)\n`,
    ]);
    git(fresh, "notes", `--ref=${NOTES}`, "copy", commit, amended);
    const copied = await verify(fresh, amended);
    expect([copied.code, copied.stdout]).toEqual([
      1,
      `wrong_subject: ${amended.slice(0, 12)}: the receipt is for commit ${commit.slice(0, 12)}, not this one\n`,
    ]);

    // The remaining cases change the receipt itself, on the published commit.
    const signer = loadSigningKeys({ dataDir: data, env: {} }).current;
    const resigned = async (change: (s: ReceiptStatement) => void, key: { keyId: string; privateKey: import("node:crypto").KeyObject } = signer) => {
      const s = readStatement(clone, commit).statement;
      change(s);
      writeNote(fresh, commit, signEnvelope(s, key));
      return verify(fresh, commit);
    };

    // (b) Signed by another key.
    const other = generateKeyPairSync("ed25519").privateKey;
    const b = await resigned(() => {}, { keyId: keyIdOf(other), privateKey: other });
    expect([b.code, b.stdout]).toEqual([1, `bad_signature: ${commit.slice(0, 12)}: signed by a key that is not trusted (${keyIdOf(other)})\n`]);

    // (c) A receipted path's blob differs from the commit's.
    const otherBlob = git(fresh, "rev-parse", `${commit}:README.md`);
    const c = await resigned((s) => (s.predicate.paths[0].blob = otherBlob));
    const realBlob = git(fresh, "rev-parse", `${commit}:src/add.js`);
    expect([c.code, c.stdout]).toEqual([
      1,
      `blob_mismatch: ${commit.slice(0, 12)}: src/add.js is blob ${realBlob.slice(0, 12)} in the commit; the receipt has blob ${otherBlob.slice(0, 12)}\n`,
    ]);

    // The receipt lists other paths, or another tree, than the commit has.
    const paths = await resigned((s) => (s.predicate.paths = [{ path: "README.md", blob: otherBlob, seq: null }]));
    expect([paths.code, paths.stdout]).toEqual([
      1,
      `path_not_receipted: ${commit.slice(0, 12)}: src/add.js is changed by the commit but not in the receipt\n` +
        `receipted_path_unchanged: ${commit.slice(0, 12)}: README.md is in the receipt but the commit does not change it\n`,
    ]);

    // (d) The receipted test run is on another tree.
    const baseTree = git(fresh, "rev-parse", `${commit}~1^{tree}`);
    const tree = git(fresh, "rev-parse", `${commit}^{tree}`);
    const d = await resigned((s) => (s.predicate.testRuns = s.predicate.testRuns.map((r) => ({ ...r, tree: baseTree }))));
    expect([d.code, d.stdout]).toEqual([
      1,
      `no_passing_test: ${commit.slice(0, 12)}: no passing test run is receipted on its tree ${tree.slice(0, 12)}; the receipted runs are on ${baseTree.slice(0, 12)}\n`,
    ]);

    // (e) The plan approved by the app itself, and by a flag given before anyone saw it.
    const wrongTree = await resigned((s) => (s.predicate.tree = baseTree));
    expect([wrongTree.code, wrongTree.stdout]).toEqual([
      1,
      `tree_mismatch: ${commit.slice(0, 12)}: its tree is ${tree.slice(0, 12)}; the receipt's is ${baseTree.slice(0, 12)}\n`,
    ]);

    const e = await resigned((s) => (s.predicate.plan!.approvedBy = { ...s.predicate.plan!.approvedBy!, login: "patchgate-app[bot]", via: "check_run" }));
    const planHash = statement.predicate.plan!.hash.slice(0, 12);
    expect([e.code, e.stdout]).toEqual([
      1,
      `not_approved_by_a_person: ${commit.slice(0, 12)}: the plan ${planHash} was approved by patchgate-app[bot], a bot or the app itself\n`,
    ]);
    const named = await resigned((s) => (s.predicate.plan!.approvedBy = { ...s.predicate.plan!.approvedBy!, login: "our-app", via: "comment" }));
    expect(named.code).toBe(0);
    const asBot = await verify(fresh, commit, "--bot", "our-app");
    expect(asBot.stdout).toBe(`not_approved_by_a_person: ${commit.slice(0, 12)}: the plan ${planHash} was approved by our-app, a bot or the app itself\n`);
    const flag = await resigned((s) => (s.predicate.plan!.approvedBy = { ...s.predicate.plan!.approvedBy!, login: "--approve-plan", via: "flag" }));
    expect([flag.code, flag.stdout]).toEqual([
      1,
      `not_approved_by_a_person: ${commit.slice(0, 12)}: the plan ${planHash} was approved in advance by the flag --approve-plan: nobody saw it before it was approved\n`,
    ]);
  }, 240_000);

  test("approvals given by flags are reported as nobody's; a rotated key's receipts still verify with the machine's keys", async () => {
    const { repo, data, env } = await sessions.start(FIX_ADD, { prefix: "pg-receipt-flags-", key: "sk-receipt-test-key" });
    const run = await runCli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "Fix add"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("git notes --ref=patchgate merge FETCH_HEAD");
    const sessionId = /session (\S+)/.exec(run.stdout)![1];
    const clone = join(data, "workspaces", sessionId);
    const commit = git(clone, "rev-parse", `patchgate/${sessionId.slice(0, 8)}`);
    const { statement } = readStatement(clone, commit);
    const plan = statement.predicate.plan!.hash.slice(0, 12);
    const batch = statement.predicate.writeBatches[0].digest.slice(0, 12);
    const expected = [
      `not_approved_by_a_person: ${commit.slice(0, 12)}: the plan ${plan} was approved in advance by the flag --approve-plan: nobody saw it before it was approved`,
      `not_approved_by_a_person: ${commit.slice(0, 12)}: the write batch ${batch} was approved in advance by the flag --approve-writes: nobody saw it before it was approved`,
      "",
    ].join("\n");

    const before = await runCli(["verify", commit, "--repo", clone], { PATCHGATE_DATA_DIR: data });
    expect([before.code, before.stdout]).toEqual([1, expected]);
    const rotated = await runCli(["keys", "--rotate"], { PATCHGATE_DATA_DIR: data });
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(
      /^current {2}sha256:[0-9a-f]{64} {2}ed25519\n-----BEGIN PUBLIC KEY-----[\s\S]*\nretired \d{4}-\d\d-\d\dT[\d:.]+Z {2}sha256:/,
    );
    // Signed by the retired key: the signature still checks out, and only the approvals are reported.
    const after = await runCli(["verify", commit, "--repo", clone], { PATCHGATE_DATA_DIR: data });
    expect([after.code, after.stdout]).toEqual([1, expected]);
  }, 240_000);
});
