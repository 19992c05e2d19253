import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The outbound gate holds only if nothing goes around it: no module of src/github other than
 * outbound.ts may call an endpoint that posts text (comments, pull requests, check runs, issues).
 */
const DIR = join(import.meta.dirname, "../../../src/github");
const POSTING = [
  /\.issues\.(createComment|updateComment|create|update)\(/,
  /\.pulls\.(create|update|createReview|createReviewComment|createReplyForReviewComment)\(/,
  /\.checks\.(create|update)\(/,
  /\b(POST|PATCH|PUT) \/repos\//,
  /\.graphql\([^)]*(addComment|updatePullRequest|createPullRequest)/,
];

test("only src/github/outbound/outbound.ts calls endpoints that post text", () => {
  const offenders = readdirSync(DIR, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && f !== "outbound/outbound.ts")
    .flatMap((f) =>
      readFileSync(join(DIR, f), "utf8")
        .split("\n")
        .map((line, i) => ({ where: `${f}:${i + 1}`, line })),
    )
    .filter(({ line }) => POSTING.some((p) => p.test(line)))
    .map(({ where, line }) => `${where}: ${line.trim()}`);
  expect(offenders).toEqual([]);
});
