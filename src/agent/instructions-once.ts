import type { Ledger } from "../store/ledger.js";
import type { RepoInstructions } from "../session/types.js";
import { sanitizeUntrusted } from "../safety/sanitize.js";
import { defaultBranchHead, readFirstDefaultBranchFile } from "../workspace/default-branch-file.js";
import type { ResumeOptions } from "./runtime-options.js";

/**
 * The repository's instructions for coding agents, in the order they are looked for; the first that
 * exists on the default branch is used, the others are not read. Patchgate's own file comes first
 * (it is the one a maintainer writes for Patchgate), then the files other agents read. A path named
 * by `.github/patchgate.yml` (`instructions:`) replaces the list.
 */
const INSTRUCTION_FILES = [".github/patchgate/instructions.md", "AGENTS.md", ".github/copilot-instructions.md", "CLAUDE.md"] as const;

/** What the model sees at most: a long file is cut here, with a line saying so. */
export const MAX_INSTRUCTION_CHARS = 16_000;
/** A blob larger than this is not even read (the prompt would take a sliver of it anyway). */
const MAX_READ_BYTES = 4 * 1024 * 1024;

function instructionCandidates(configured: string | undefined): string[] {
  return configured ? [configured] : [...INSTRUCTION_FILES];
}

/**
 * Reads the instructions once, before the first model call, from the default branch only (never the
 * tree the session works on: a PR head's AGENTS.md is the PR author's, not the maintainers'), and
 * records them; sanitised like issue text, since whoever can push to the default branch is not
 * necessarily whom Patchgate obeys. Sessions that made a model call before this existed are left alone.
 */
export async function loadInstructionsOnce(ledger: Ledger, opts: ResumeOptions): Promise<void> {
  const s = ledger.state;
  if (s.instructions !== null || s.step > 0) return;
  await ledger.append({
    type: "instructions_loaded",
    ...(await findInstructions(opts.workspace.root, instructionCandidates(opts.repoConfig.instructions), opts.signal)),
  });
}

async function findInstructions(root: string, candidates: string[], signal?: AbortSignal): Promise<RepoInstructions> {
  const none: RepoInstructions = { path: null, commit: null, bytes: 0, text: "", truncated: false, candidates };
  const commit = await defaultBranchHead(root, signal);
  if (!commit) return none;
  const found = await readFirstDefaultBranchFile(root, commit, candidates, MAX_READ_BYTES, signal);
  if (found !== null) {
    const { path, file } = found;
    if (file.text === null) {
      const text = `[${path} is ${file.bytes} bytes, too large to read; nothing of it is shown]`;
      return { path, commit, bytes: file.bytes, text, truncated: true, candidates };
    }
    const text = sanitizeUntrusted(file.text, { maxChars: MAX_INSTRUCTION_CHARS });
    // The sanitiser appends a note past the cap when it cuts, so only a cut text is longer than it.
    return { path, commit, bytes: file.bytes, text, truncated: text.length > MAX_INSTRUCTION_CHARS, candidates };
  }
  return { ...none, commit };
}
