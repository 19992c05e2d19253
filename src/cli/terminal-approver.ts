import { createInterface } from "node:readline/promises";
import type { Ledger } from "../store/ledger.js";
import type { TerminalApprover } from "./drive-locally.js";

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
    async writes(ledger: Ledger) {
      for (const call of ledger.state.pending?.calls ?? []) out.write(`\n${call.tool} (rule ${call.rule}):\n${call.preview}\n`);
      if (flags.approveWrites) return { approve: true, flag: "--approve-writes" };
      if (!interactive) return null;
      const a = await ask("Allow these changes? [y = allow / anything else = reason to deny] ");
      return a.toLowerCase() === "y" ? { approve: true } : { approve: false, reason: a || "denied at the terminal" };
    },
  };
}
