import { renderCheckRun } from "../../../src/trace/check-run.js";
import { OUTCOMES } from "../../trace/fixtures/outcomes.js";

/**
 * The check run's folded Receipt section: the key that signed the last published commit's receipt,
 * its envelope digest, and how to check it from a clone — from the ledger's `receipt_recorded` alone.
 */
const COMMIT = "c".repeat(40);
const KEY = `sha256:${"e".repeat(64)}`;
const DIGEST = `sha256:${"d".repeat(64)}`;
const envelope = JSON.stringify({ payload: "e30=", payloadType: "application/vnd.in-toto+json", signatures: [{ keyid: KEY, sig: "AA==" }] });

describe("the Receipt section", () => {
  test("names the key, the digest and the verification line with the keys URL", () => {
    const s = OUTCOMES.done().add({ type: "receipt_recorded", commit: COMMIT, kind: "result", digest: DIGEST, envelope });
    const { summary } = renderCheckRun(s.state, s.events, { sessionId: s.sessionId, keysUrl: "https://patchgate.example/patchgate/keys" });
    const section = summary.slice(summary.indexOf("<details><summary>Receipt</summary>"));
    expect(section).toContain("<details><summary>Receipt</summary>");
    expect(section).toContain(`\`${KEY}\``);
    expect(section).toContain(`\`${DIGEST}\``);
    expect(section).toContain(`\`npx patchgate verify ${COMMIT} --key https://patchgate.example/patchgate/keys\``);
    expect(section).toContain("</details>");
  });

  test("without the app's public URL, says where the key comes from instead of a placeholder", () => {
    const s = OUTCOMES.done().add({ type: "receipt_recorded", commit: COMMIT, kind: "result", digest: DIGEST, envelope });
    const { summary } = renderCheckRun(s.state, s.events, { sessionId: s.sessionId });
    const section = summary.slice(summary.indexOf("<details><summary>Receipt</summary>"));
    expect(section).toContain(`\`npx patchgate verify ${COMMIT} --key keys.json\``);
    expect(section).toContain("`patchgate keys --json` on the deployment");
    expect(section).not.toContain("/patchgate/keys");
    expect(section).not.toContain("<this app");
  });

  test("absent while no commit has a receipt", () => {
    const s = OUTCOMES.done();
    expect(renderCheckRun(s.state, s.events, { sessionId: s.sessionId }).summary).not.toContain("Receipt");
  });
});
