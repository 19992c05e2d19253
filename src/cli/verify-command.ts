import { readFile } from "node:fs/promises";
import { approvalRulesAt } from "../receipt/approval-rules-at.js";
import type { TrustedKey } from "../receipt/envelope.js";
import { ReceiptError } from "../receipt/receipt-error.js";
import { publicKeysDocument } from "../receipt/signing-key.js";
import { parseTrustedKeys } from "../receipt/trusted-keys.js";
import { verifyCommits } from "../receipt/verify-commit.js";
import { budgetRaiseLines } from "./budget-raise-lines.js";
import { WorkspaceError } from "../workspace/workspace-error.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { localSigningKeys } from "./keys-command.js";
import { UsageError } from "./usage-error.js";
import { dataDir } from "./data-dir.js";

export const VERIFY_USAGE = "patchgate verify <commit|range> [--key <file|url>]... [--bot <login>]... [--json] [--repo <dir>]";

const KEY_FETCH_TIMEOUT_MS = 15_000;

/**
 * `patchgate verify`: checks the receipts (git notes under refs/notes/patchgate) of a commit or each
 * commit of a range, offline, from the repository and the public keys alone; no store is opened.
 * Exit 0 when every commit has a valid receipt it matches; 1 with one line per finding otherwise.
 */
export async function verifyCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const options = {
    key: { type: "string", multiple: true },
    bot: { type: "string", multiple: true },
    json: { type: "boolean" },
    repo: { type: "string" },
    "data-dir": { type: "string" },
  } as const;
  const parsed = parseCommandArgs(argv, options, VERIFY_USAGE);
  if (parsed.help) return help(out, VERIFY_USAGE);
  if (parsed.positionals.length !== 1) throw new UsageError(`verify takes one commit or range\nusage: ${VERIFY_USAGE}`);
  const range = parsed.positionals[0];
  const gitDir = parsed.values.repo ?? process.cwd();
  try {
    const publicKeys = parsed.values.key ? (await Promise.all(parsed.values.key.map(readKeys))).flat() : deploymentKeys(parsed.values["data-dir"], env);
    const base = range.includes("..") ? range.slice(0, range.indexOf("..")) || "HEAD" : `${range}^`;
    const verdicts = await verifyCommits({
      gitDir,
      range,
      publicKeys,
      botLogins: parsed.values.bot ?? [],
      requireNonRequester: await approvalRulesAt(gitDir, base),
    });
    if (verdicts.length === 0) {
      out.write(`${range}: no commits to verify\n`);
      return 1;
    }
    const failed = verdicts.some((v) => v.findings.length > 0);
    if (parsed.values.json) out.write(`${JSON.stringify({ ok: !failed, commits: verdicts }, null, 2)}\n`);
    else
      for (const v of verdicts) {
        if (v.findings.length === 0) out.write(`${v.commit.slice(0, 12)}: ok, signed by ${v.keyId}\n`);
        for (const f of v.findings) out.write(`${f.code}: ${f.message}\n`);
        for (const line of budgetRaiseLines(v)) out.write(`${v.commit.slice(0, 12)}: ${line}\n`);
      }
    return failed ? 1 : 0;
  } catch (e) {
    // A key that does not parse, a revision git does not know: one line, not a stack.
    if (ReceiptError.isInstance(e) || WorkspaceError.isInstance(e)) throw new UsageError(e.message.split("\n")[0]);
    throw e;
  }
}

/** Without `--key`: this machine's own keys (the signing key's public half and the retired ones). */
function deploymentKeys(dataDirFlag: string | undefined, env: OperatorEnv): TrustedKey[] {
  const keys = localSigningKeys(dataDir(dataDirFlag, env), env);
  if (keys === null) throw new UsageError(`this machine has no signing key: pass --key <file|url>\nusage: ${VERIFY_USAGE}`);
  return publicKeysDocument(keys).keys;
}

async function readKeys(source: string): Promise<TrustedKey[]> {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(KEY_FETCH_TIMEOUT_MS) }).catch((e: unknown) => {
      throw new UsageError(`--key ${source}: ${(e as Error).message}`);
    });
    if (!res.ok) throw new UsageError(`--key ${source}: HTTP ${res.status}`);
    return parseTrustedKeys(await res.text(), `--key ${source}`);
  }
  const text = await readFile(source, "utf8").catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(`--key ${source}: ${e.code ?? e.message}`);
  });
  return parseTrustedKeys(text, `--key ${source}`);
}
