import { z } from "zod";
import { parseCron } from "./cron.js";

/**
 * `automations:` in `.github/patchgate.yml`: sessions that start without a `/agent` comment. Read from
 * the default branch like the rest of the file, so a pull request cannot add one for itself. Each
 * starts a session under the same gates as any other; only the plan may be approved by the
 * automation (`approve_plan: auto`), never a write.
 */

/** An automation's name: it is shown in the check run and in the plan's approval, so it stays plain. */
const NameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, "letters, digits, `-` and `_`, at most 63, starting with a letter or digit")
  .describe("The automation's name, shown in the check run and in an automatic plan approval.");

const LabelSchema = z.string().min(1).max(50).describe("A label's name, as GitHub shows it.");

/** A GitHub login: what the permission API is asked about when a schedule fires. */
const LoginSchema = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "a GitHub login");

const CronSchema = z.string().superRefine((text, ctx) => {
  const parsed = parseCron(text);
  if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: `not a cron schedule (${parsed})` });
});

/** ci_failed's attempts: enough to fix what the first fix missed, few enough that a loop ends. */
const DEFAULT_CI_ATTEMPTS = 2;

const TriggerSchema = z
  .object({
    issue_labeled: z.object({ label: LabelSchema }).strict().optional().describe("When a person with write access adds this label to an issue."),
    issue_opened: z
      .object({ labels: z.array(LabelSchema).max(10).optional().describe("Labels the issue must carry when it is opened; none: every issue.") })
      .strict()
      .nullable()
      .optional()
      .describe("When a person with write access opens an issue."),
    schedule: z
      .object({
        cron: CronSchema.describe("When, in UTC: five fields, e.g. `0 6 * * 1` (Mondays at 06:00)."),
        task: z.string().min(1).max(4000).describe("What the session is asked to do; also the title of the issue that carries each run."),
        owner: LoginSchema.describe("Who the session runs for: they must have write access each time it fires, or it does not run."),
      })
      .strict()
      .optional()
      .describe("At the times `cron` names; one issue per run carries the session."),
    ci_failed: z
      .object({
        max_attempts: z.number().int().min(1).max(5).default(DEFAULT_CI_ATTEMPTS).describe("Follow-up sessions per pull request; then a comment says so."),
      })
      .strict()
      .nullable()
      .optional()
      .describe("When CI fails on the head of a pull request Patchgate published (a run a human's commit triggered is ignored)."),
  })
  .strict()
  .superRefine((on, ctx) => {
    const given = Object.keys(on).filter((k) => (on as Record<string, unknown>)[k] !== undefined);
    if (given.length !== 1)
      ctx.addIssue({ code: "custom", message: `exactly one of issue_labeled, issue_opened, schedule, ci_failed (${given.length} given)` });
  });

const AutomationSchema = z
  .object({
    name: NameSchema,
    on: TriggerSchema,
    approve_plan: z.enum(["auto"]).optional().describe("`auto`: the plan is approved by the automation, recorded as such; writes still wait for a person."),
  })
  .strict();

export const AutomationsSchema = z
  .array(AutomationSchema)
  .max(20)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((a, i) => {
      if (seen.has(a.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: "another automation has this name" });
      seen.add(a.name);
    });
  })
  .describe("Sessions that start on an event or a schedule, without a `/agent` comment.");

export type Automation = z.infer<typeof AutomationSchema>;

/** An automation's trigger as one tagged value (`issue_opened:` and `ci_failed:` may be written empty). */
export type AutomationTrigger =
  | { kind: "issue_labeled"; label: string }
  | { kind: "issue_opened"; labels: string[] }
  | { kind: "schedule"; cron: string; task: string; owner: string }
  | { kind: "ci_failed"; maxAttempts: number };

export function triggerOf(a: Automation): AutomationTrigger {
  const on = a.on;
  if (on.issue_labeled) return { kind: "issue_labeled", label: on.issue_labeled.label };
  if (on.schedule) return { kind: "schedule", ...on.schedule };
  if (on.ci_failed !== undefined) return { kind: "ci_failed", maxAttempts: on.ci_failed?.max_attempts ?? DEFAULT_CI_ATTEMPTS };
  return { kind: "issue_opened", labels: on.issue_opened?.labels ?? [] };
}
