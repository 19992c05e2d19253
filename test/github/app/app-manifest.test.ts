import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { LIFECYCLE_EVENTS } from "../../../src/github/inbound/lifecycle-events.js";
import { HANDLED_EVENTS } from "../../../src/github/inbound/triggers.js";
import { PULL_PUSH_EVENTS } from "../../../src/github/inbound/pull-push.js";

/** An event the app acts on but the manifest does not subscribe to would never arrive. */
describe("app.yml", () => {
  const manifest = parse(readFileSync(new URL("../../../app.yml", import.meta.url), "utf8")) as { default_events: string[] };
  // GitHub sends these to every app; they cannot be subscribed to.
  const ALWAYS_SENT = ["installation", "installation_repositories"];

  test("subscribes to every event Patchgate acts on, lifecycle events included", () => {
    const needed = new Set(
      [...HANDLED_EVENTS, ...LIFECYCLE_EVENTS, ...PULL_PUSH_EVENTS].map((name) => name.split(".")[0]).filter((e) => !ALWAYS_SENT.includes(e)),
    );
    expect(needed).toContain("repository");
    expect([...needed].filter((e) => !manifest.default_events.includes(e))).toEqual([]);
  });

  test("and to nothing it ignores", () => {
    const acted = new Set([...HANDLED_EVENTS, ...LIFECYCLE_EVENTS, ...PULL_PUSH_EVENTS].map((name) => name.split(".")[0]));
    expect(manifest.default_events.filter((e) => !acted.has(e))).toEqual([]);
  });
});
