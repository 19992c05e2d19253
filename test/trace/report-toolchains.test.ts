import { renderCheckRun } from "../../src/trace/check-run.js";
import { OUTCOMES } from "./fixtures/outcomes.js";
import { SessionScript } from "./fixtures/session-script.js";

/**
 * The toolchains the sandbox ran with (`toolchains_resolved`) are evidence: one line in Evidence,
 * how each was found in its step; a session blocked on a missing one says what to install first.
 */
test("the session's toolchains in one Evidence line; how each was found is the step's line", () => {
  const s = new SessionScript("sess-tc").executing();
  const rust = {
    name: "rust",
    version: "1.95.0",
    path: "/h/.rustup/toolchains/stable/bin",
    binds: ["/h/.rustup/toolchains/stable"],
    how: "rustup default stable (settings.toml)",
  };
  const go = { name: "go", version: "1.22.3", path: "/usr/local/go/bin", binds: ["/usr/local/go"], how: "go 1.22.3, pinned by go.mod (1.22 or later)" };
  s.add({ type: "toolchains_resolved", toolchains: [rust, go], unmet: [] });
  const out = renderCheckRun(s.state, s.events, { sessionId: "sess-tc" });
  expect(out.summary).toContain(
    "### Evidence\n\n- Test command: none configured or detected.\n- Toolchains: rust 1.95.0 (`/h/.rustup/toolchains/stable/bin`) · go 1.22.3 (`/usr/local/go/bin`)\n",
  );
  expect(out.text).toContain(
    "toolchains resolved: rust 1.95.0 at /h/.rustup/toolchains/stable/bin (rustup default stable (settings.toml)) · go 1.22.3 at /usr/local/go/bin (go 1.22.3, pinned by go.mod (1.22 or later))",
  );
});

test("blocked: the title and first line say so and what to do; Evidence names what is missing", () => {
  const s = OUTCOMES.blocked();
  const out = renderCheckRun(s.state, s.events, { sessionId: s.sessionId });
  expect(out.title).toBe("Patchgate: Blocked: toolchain_missing");
  expect(out.summary.split("\n")[0]).toBe(
    "**⛔ Blocked** — a toolchain the repository needs is not installed on the host (`toolchain_missing`): The repository needs toolchains this host does not have: rust 1.80.0 (rust-toolchain.toml): rustup toolchain install 1.80.0. Install them on the host running Patchgate, then start the session again. `/agent retry` starts again once that is done.",
  );
  expect(out.summary).toContain("- **Missing on the host:** rust 1.80.0, asked by `rust-toolchain.toml` — rustup toolchain install 1.80.0\n");
  expect(out.text).toMatch(
    /<summary>Start · [^<]+ · session started for @\u2060maintainer; blocked: a toolchain the repository needs is not installed on the host<\/summary>/,
  );
});
