import { startHarness, type Harness, type HarnessOptions } from "./harness.js";
import { STORY_FILES, STORY_PERMISSIONS, storyScript } from "./story.js";
import type { FakeCheckRun } from "../fakes/github/github-state.js";
import { openApiValidator } from "../fakes/openapi-validator.js";
import { TEST_LIMITS } from "./app-instance.js";

/** The fake GitHub's call log as `METHOD path` lines (query kept for list calls), from index `from`. */
export function callLines(h: Harness, from = 0): string[] {
  return h.github.world.calls.slice(from).map((c) => {
    const q = new URLSearchParams(c.query).toString();
    return `${c.method} ${c.path}${q ? `?${q}` : ""}`;
  });
}

export const R = "/repos/octo-org/calculator";
export const MINT = "POST /app/installations/77/access_tokens";

/** A fetch over git's smart HTTP: the ref advertisement, then the pack. */
const FETCH = ["GIT upload-pack /octo-org/calculator.git", "GIT upload-pack /octo-org/calculator.git"];
/** The plan's (empty) commit made through the Git Data API, a new branch for it, and the signed commit fetched back. */
export const SIGNED_PLAN_PUSH = [`POST ${R}/git/commits`, `POST ${R}/git/refs`, ...FETCH];
/** A result commit through the Git Data API (one blob per changed file), the branch fast-forwarded, the commit fetched back. */
export const signedResultPush = (blobs = 1, branch = "patchgate/issue-1") => [
  ...Array(blobs).fill(`POST ${R}/git/blobs`),
  `POST ${R}/git/trees`,
  `POST ${R}/git/commits`,
  `PATCH ${R}/git/refs/${encodeURIComponent(`heads/${branch}`)}`,
  ...FETCH,
];

/**
 * "The" check run of a one-session story: the session has one run per head sha it pushed, and all
 * but one were closed `neutral` when the next head took over. Asserts that shape; returns the one.
 */
export function theCheckRun(h: Harness): FakeCheckRun {
  const runs = h.github.world.checkRuns;
  expect(runs.every((r) => r.name === "Patchgate")).toBe(true);
  expect(new Set(runs.map((r) => r.head_sha)).size).toBe(runs.length);
  const live = runs.filter((r) => !(r.status === "completed" && r.conclusion === "neutral"));
  expect(live).toHaveLength(1);
  return live[0];
}

/** The demo story's harness with its repository config published on the default branch. */
export async function storyHarness(overrides: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await startHarness({ script: storyScript(), files: STORY_FILES, permissions: STORY_PERMISSIONS, validate: openApiValidator, ...overrides });
  h.github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
  return h;
}

/** GitHub failing an endpoint for longer than the client retries: the first try and every retry get `status`. */
export function outage(h: Harness, method: string, pathPrefix: string, status: number): void {
  for (let i = 0; i <= TEST_LIMITS.serverRetries; i++) h.github.world.failNext.push({ method, pathPrefix, status });
}
