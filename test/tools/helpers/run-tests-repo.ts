import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../../src/config/repo-config.js";
import { contentHash } from "../../../src/policy/edit-context.js";
import type { ToolHarness } from "./tool-harness.js";

/** The repository the run_tests tests run in: test.sh passes while ok.txt says "ok". */
export const REPO = {
  ".gitignore": "runs.log\n",
  "ok.txt": "ok\n",
  "test.sh": 'if [ "$(cat ok.txt)" = ok ]; then echo "all good"; else printf "TAP version 13\\nnot ok 1 - ok.txt says ok\\n1..1\\n"; exit 1; fi\n',
};
export const config = (over: Partial<RepoConfig> = {}): RepoConfig => ({ ...DEFAULT_REPO_CONFIG, test: "sh test.sh", ...over });
/** A write as write_file makes it: the file, and its file_written event. */
export const write = (h: ToolHarness, rel: string, content: string) => {
  writeFileSync(join(h.workspace.root, rel), content);
  h.push({ type: "file_written", path: rel, hash: contentHash(content) });
};
