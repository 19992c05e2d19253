import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { fail, ok } from "./tool.js";

const DESCRIPTION = `Ask the maintainers one question while planning, when the task is ambiguous and a wrong guess would waste the work (which of two behaviours they want, whether an API may change). After this call, stop and wait: the session parks until a maintainer answers, and the answer arrives as a message.
- Ask only what reading the code cannot tell you; one short, self-contained question.
- A session may ask only a few questions; when they are used up, decide and state your assumptions in the plan.`;

const input = z
  .object({
    question: z.string().trim().min(1).max(2000).describe("The question, written for a maintainer who has not read the code you read."),
  })
  .strict();

/**
 * Planning's way back to a human: the question is recorded (`question_asked`) and the session parks in
 * `awaiting_answer`; the answer, from someone the runtime obeys, resumes planning. Offered only in plan
 * mode; bounded per session (`limits.max_questions`); refused in an unattended run, where nobody answers.
 */
export const askHumanTool = defineTool({
  name: "ask_human",
  version: "1",
  description: DESCRIPTION,
  input,
  effect: { risk: "meta", mutatesWorkspace: false, idempotent: true },
  modes: ["plan"],
  request() {
    return { kind: "meta" };
  },
  async execute(args, ctx) {
    if (ctx.state.settings.unattended) {
      return { result: fail("no_human", "Nobody answers questions in this run (it is unattended). Decide yourself and state your assumptions in the plan.") };
    }
    const max = ctx.repoConfig.limits.max_questions;
    if (ctx.state.questions.length >= max) {
      return {
        result: fail(
          "question_limit",
          `This session has asked its ${max} question${max === 1 ? "" : "s"}. Decide yourself and state your assumptions in the plan.`,
        ),
      };
    }
    const message = "Question posted to the maintainers. Do not call any more tools now: planning continues when one of them answers.";
    return { result: ok({ message }), events: [{ type: "question_asked", question: args.question }] };
  },
});
