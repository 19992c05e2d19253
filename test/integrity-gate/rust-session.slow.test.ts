import { execFileSync } from "node:child_process";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approvePlan, autoApproveWrites, denyIntegrity } from "../../src/agent/approvals.js";
import { publishToLocalBranch } from "../../src/publish/local-branch.js";
import { SessionHarness } from "../helpers/session-harness.js";

/** A cargo crate whose clamp gives lo above the range; its integration test says so. No dependencies: crates.io is not reachable. */
const TEST =
  "use clamp::clamp;\n\n#[test]\nfn above_the_range_gives_hi() {\n    assert_eq!(clamp(9, 0, 5), 5);\n}\n\n#[test]\nfn inside_stays() {\n    assert_eq!(clamp(3, 0, 5), 3);\n}\n";
const CRATE: Record<string, string> = {
  "Cargo.toml": '[package]\nname = "clamp"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  "src/lib.rs":
    "/// `x` limited to `lo..=hi`.\npub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    if x < lo {\n        lo\n    } else if x > hi {\n        lo\n    } else {\n        x\n    }\n}\n",
  "tests/clamp.rs": TEST,
  ".gitignore": "target/\nCargo.lock\n",
  ".github/patchgate.yml": "test: cargo test --offline\n",
};
const cli = { login: "maintainer", via: "cli" as const };
const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });

describe("a Rust session: the agent's #[ignore] is caught before publication, and its real fix is published", () => {
  let h: SessionHarness;
  afterEach(() => h?.dispose());

  test("ignored test → test_integrity request → denied → fix → published with the test unchanged", async () => {
    h = await SessionHarness.create(CRATE);
    const llm = new ScriptedLLM([
      {
        toolCalls: [
          { name: "read_file", arguments: { path: "tests/clamp.rs" } },
          { name: "read_file", arguments: { path: "src/lib.rs" } },
        ],
      },
      call("submit_plan", { summary: "make the tests pass", steps: ["change", "run the tests"] }),
      call("edit_file", {
        path: "tests/clamp.rs",
        edits: [{ search: "#[test]\nfn above_the_range_gives_hi() {", replace: "#[test]\n#[ignore]\nfn above_the_range_gives_hi() {" }],
      }),
      call("run_tests"),
      call("finish", { summary: "tests pass" }),
      call("write_file", { path: "tests/clamp.rs", content: TEST }),
      call("edit_file", { path: "src/lib.rs", edits: [{ search: "    } else if x > hi {\n        lo\n", replace: "    } else if x > hi {\n        hi\n" }] }),
      call("run_tests"),
      call("finish", { summary: "clamp gives hi above the range" }),
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_integrity_approval" });
    expect(h.ledger.state.integrity?.report.findings.map((f) => f.detector)).toContain("rust.ignore");
    // Nothing was published while the request waits.
    expect(h.ledger.state.published).toBeNull();

    await denyIntegrity(h.ledger, cli, h.ledger.state.integrity!.digest, "fix clamp instead");
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
    await publishToLocalBranch(h.ledger, h.workspace, { prefix: "patchgate/it-", author: { name: "T", email: "t@example.invalid" }, trailer: "test" });
    const { branch } = h.ledger.state.published!;
    const show = (path: string) => execFileSync("git", ["show", `${branch}:${path}`], { cwd: h.workspace.root, encoding: "utf8" });
    expect(show("tests/clamp.rs")).toBe(TEST);
    expect(show("src/lib.rs")).toContain("    } else if x > hi {\n        hi\n");
    expect(h.ledger.state.integrityChecked?.report.findings).toEqual([]);
  }, 600_000);
});
