import { ISSUE } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";

/**
 * A lifecycle event goes through the inbox like a command: an uninstall answered 2xx by a process
 * that is then killed -9 before it acted is applied by the next process, once — and GitHub's
 * redelivery of it afterwards is a no-op.
 */
describe("an uninstall across kill -9", () => {
  let c: CrashWorld;
  beforeAll(async () => {
    c = await CrashWorld.create();
  });
  afterAll(() => c.close());

  test("the next process cancels the session, exactly once", async () => {
    const ask = await c.send(
      "issue_comment",
      c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    await c.done(ask.id);
    expect(c.github.world.pulls).toHaveLength(1);

    c.github.world.uninstall();
    const payload = c.payloads.installationDeleted({ by: "maintainer" });
    // The first thing the job asks GitHub: does the installation still exist?
    const hold = c.holdNext("GET", "/app/installations/77");
    const gone = await c.send("installation", payload);
    expect(gone.status).toBe(200);
    await hold.reached;
    await c.app.kill9();
    hold.release();
    expect((await c.events()).map((e) => e.type)).not.toContain("session_cancelled");

    await c.start();
    await c.done(gone.id);
    const after = await c.events();
    expect(after.filter((e) => e.type === "session_cancelled")).toHaveLength(1);
    expect(after.at(-1)).toMatchObject({ type: "session_cancelled", by: "github", reason: "Patchgate was uninstalled from octo-org by @maintainer" });
    expect(c.app.lines).toContain(`delivery ${gone.id} (installation.deleted) was not done when the app stopped → queued again`);

    const again = await c.send("installation", payload, gone.id);
    expect(again.status).toBe(200);
    await c.app.logged((l) => l === `redelivery ${gone.id} ignored (already done)`);
    expect((await c.events()).filter((e) => e.type === "session_cancelled")).toHaveLength(1);
  });
});
