import { createInterface } from "node:readline/promises";
import type { Ledger } from "../store/ledger.js";
import type { TerminalApprover } from "./drive-locally.js";
import { findingsText } from "../policy/test-integrity-gate.js";

/** Answers from flags first; then asks on the terminal; without a terminal it leaves the session parked. */
export function terminalApprover(flags: { approvePlan: boolean; approveWrites: boolean }, out: NodeJS.WritableStream): TerminalApprover {
  const interactive = Boolean(process.stdin.isTTY);
  const ask = async (question: string): Promise<string> => {
    const rl = createInterface({ input: process.stdin, output: out });
    // A terminal in raw mode turns Ctrl-C into a readline event: pass it on, so a question is left like any other wait.
    rl.on("SIGINT", () => process.kill(process.pid, "SIGINT"));
    try {
      return (await rl.question(question)).trim();
    } finally {
      rl.close();
    }
  };
  return {
    async plan(ledger: Ledger) {
      const plan = ledger.state.plan;
      out.write(`\nPlan (${ledger.state.planHash?.slice(0, 12)}):\n${plan?.summary}\n${plan?.steps.map((s, i) => `  ${i + 1}. ${s}`).join("\n")}\n`);
      if (flags.approvePlan) return { approve: true, flag: "--approve-plan" };
      if (!interactive) return null;
      const a = await ask("Approve this plan? [y = approve / anything else = feedback for a revision] ");
      return a.toLowerCase() === "y" ? { approve: true } : { approve: false, feedback: a || "Please revise the plan." };
    },
    async answer(ledger: Ledger) {
      out.write(`\nThe agent asks: ${ledger.state.questions.at(-1)?.question ?? ""}\n`);
      if (!interactive) return null;
      const a = await ask("Your answer: ");
      return a || null;
    },
    // No flag answers this one: weakened tests are published only when someone at the terminal read the findings.
    async integrity(ledger: Ledger) {
      const report = ledger.state.integrity?.report;
      out.write(`\nThe change weakens the tests (test_integrity; --approve-writes never approves it):\n${report ? findingsText(report) : ""}\n`);
      if (!interactive) return null;
      const a = await ask("Publish the tests weakened like this? [yes = approve / anything else = reason to deny] ");
      return a.toLowerCase() === "yes" ? { approve: true } : { approve: false, reason: a || "denied at the terminal" };
    },
    // No flag answers this one either: a grant opens what the sandbox refused, so someone reads what and why.
    async grant(ledger: Ledger) {
      const req = ledger.state.grantRequest?.request;
      out.write(`\nThe agent asks for a grant, for this session only: ${req?.kind} ${req?.target}\nIts reason: ${req?.reason}\n`);
      if (!interactive) return null;
      const a = await ask("Grant it? [yes = grant / anything else = reason to deny] ");
      return a.toLowerCase() === "yes" ? { approve: true } : { approve: false, reason: a || "denied at the terminal" };
    },
    async writes(ledger: Ledger) {
      const calls = ledger.state.pending?.calls ?? [];
      for (const call of calls.filter((c) => !c.executableConfig)) out.write(`\n${call.tool} (rule ${call.rule}):\n${call.preview}\n`);
      const executable = calls.filter((c) => c.executableConfig);
      if (executable.length > 0) out.write(`\nExecutable configuration (needs its own approval; --approve-writes never gives it):\n`);
      for (const call of executable) {
        const hit = call.executableConfig!;
        out.write(`\n${call.tool} ${hit.path} — ${hit.tool}: ${hit.when}\n${call.preview}\n`);
      }
      // The flag approves the ordinary writes; executable configuration is refused to the agent.
      if (flags.approveWrites && (executable.length === 0 || !interactive)) return { approve: true, flag: "--approve-writes" };
      if (!interactive) return null;
      if (!flags.approveWrites) {
        const a = await ask("Allow these changes? [y = allow / anything else = reason to deny] ");
        if (a.toLowerCase() !== "y") return { approve: false, reason: a || "denied at the terminal" };
      }
      if (executable.length === 0) return { approve: true };
      const e = await ask(
        `Also write the executable configuration (${executable.map((c) => c.executableConfig!.path).join(", ")})? [yes = write it / anything else = refuse it] `,
      );
      if (e.toLowerCase() === "yes") return { approve: true, executableConfig: true };
      return flags.approveWrites ? { approve: true, flag: "--approve-writes" } : { approve: true };
    },
  };
}
