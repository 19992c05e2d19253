import { bullets, code, details, para, type Block } from "./doc.js";
import type { SessionView } from "./session-view.js";

/**
 * The receipt of the session's last published commit, folded: the key that signed it, the digest of
 * its envelope (what a follow-up's receipt names), and how anyone checks it from a plain clone.
 * Nothing while no commit has a receipt.
 */
function keyIdOf(envelope: string): string {
  try {
    const keyid = (JSON.parse(envelope) as { signatures?: { keyid?: unknown }[] }).signatures?.[0]?.keyid;
    return typeof keyid === "string" ? keyid : "unknown";
  } catch {
    return "unknown";
  }
}

export function receiptBlocks(v: SessionView, keysUrl: string | undefined): Block[] {
  const last = [...v.events].reverse().find((e) => e.type === "receipt_recorded");
  if (last?.type !== "receipt_recorded") return [];
  return [
    details(
      ["Receipt"],
      [
        bullets([
          [`Commit (${last.kind}): `, code(last.commit)],
          ["Signed by key: ", code(keyIdOf(last.envelope))],
          ["Envelope digest: ", code(last.digest)],
        ]),
        para(
          "Check it from a clone: ",
          code("git fetch origin refs/notes/patchgate:refs/notes/patchgate"),
          ", then ",
          code(`npx patchgate verify ${last.commit} --key ${keysUrl ?? "keys.json"}`),
          // Without the app's public URL there is no address to print: say where the key comes from instead.
          ...(keysUrl === undefined
            ? [", with ", code("keys.json"), " the output of ", code("patchgate keys --json"), " on the deployment (its public URL is not configured)"]
            : []),
        ),
      ],
    ),
  ];
}
