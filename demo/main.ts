import { readBranch } from "../test/fakes/git/bare-repo.js";
import { startHarness } from "../test/harness/harness.js";
import { STORY_FILES, STORY_PERMISSIONS, storyScript, storySteps } from "../test/harness/story.js";

/**
 * `npm run demo`: the whole GitHub flow on this machine — a fake GitHub, a git remote, a scripted
 * model, and the real Patchgate between them — with no account and no API key. Prints what happened.
 */
function show(title: string, body: string): void {
  console.log(`\n  ── ${title} ──\n${body.replace(/^/gm, "  │ ")}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const line = (text: string) => console.log(`${String(Date.now() - started).padStart(6)} ms  ${text}`);
  const h = await startHarness({ script: storyScript(), files: STORY_FILES, permissions: STORY_PERMISSIONS, log: line });
  h.github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
  try {
    console.log("\n@maintainer comments `/agent fix this` on issue #1 (add() subtracts)\n");
    await storySteps.ask(h);
    show("The draft PR's body", h.github.world.pulls[0]?.body ?? "");
    console.log("\n@reviewer approves the draft PR\n");
    await storySteps.approvePlan(h);
    show("The comment with the pending write", h.github.world.comments.at(-1)?.body ?? "");
    console.log("\n@maintainer comments `/agent approve` on the pending write\n");
    await storySteps.approveWrites(h);

    const w = h.github.world;
    console.log("\nGitHub API calls, in order:");
    for (const c of w.calls)
      console.log(
        `  ${c.status}  ${c.method.padEnd(5)} ${c.path}${c.method === "GET" && Object.keys(c.query).length ? `?${new URLSearchParams(c.query)}` : ""}`,
      );
    const pr = w.pulls[0];
    const head = readBranch(h.bare, pr.head.ref);
    console.log(`\nPR #${pr.number} ${pr.draft ? "draft" : "ready for review"}: ${pr.html_url}`);
    // One run per head Patchgate pushed: base commit, plan commit, final commit; the last is "the" run.
    console.log(`check runs: ${w.checkRuns.map((c) => `${c.head_sha.slice(0, 7)} ${c.status}/${c.conclusion}`).join(", ")}`);
    console.log(`pushed ${pr.head.ref} @ ${head?.sha.slice(0, 7)} by ${head?.author}\n${head?.message.replace(/^/gm, "    ")}`);
    console.log(`\nsrc/add.js on the branch:\n${head?.files["src/add.js"]}`);
    console.log("Check run timeline (as posted):\n");
    console.log(w.checkRuns.at(-1)?.output.text ?? "");
    if (h.app.errors.length > 0) process.exitCode = 1;
  } finally {
    await h.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
