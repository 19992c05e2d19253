import { triggerOf, type Automation } from "../../config/automations.js";
import type { Ledger } from "../../store/ledger.js";
import type { JobContext } from "../deps.js";
import type { Intent } from "../inbound/intent.js";
import { automationSource, automationsOf, readAutomations, type DeclaredAutomations } from "./automation-config.js";
import { startSession } from "./start.js";

/**
 * An issue opened, or a label added to one, by a person with write access (the job checked, and
 * said nothing otherwise): a session starts when an automation of the default branch names the event,
 * on the issue's own text, recorded as that automation's. An event no automation names starts nothing.
 */
type IssueEvent = Extract<Intent, { kind: "issue_event" }>;

function matches(a: Automation, e: IssueEvent, labelsOn: readonly string[]): boolean {
  const t = triggerOf(a);
  if (e.event === "issue_labeled") return t.kind === "issue_labeled" && t.label === e.label;
  return t.kind === "issue_opened" && t.labels.every((l) => labelsOn.includes(l));
}

/** The automation of the default branch that names this event, or why none does. */
export async function matchingAutomation(
  octokit: JobContext["octokit"],
  repo: JobContext["delivery"]["repo"],
  e: IssueEvent,
): Promise<{ declared: DeclaredAutomations; automation: Automation } | { none: string }> {
  const declared = await readAutomations(octokit, repo);
  if (!declared || automationsOf(declared).length === 0) return { none: declared?.config.ok === false ? "the config is invalid" : "no automation is declared" };
  const labelsOn = e.event === "issue_opened" ? await labelsOfIssue(octokit, repo, e.thread.number) : [];
  const automation = automationsOf(declared).find((x) => matches(x, e, labelsOn));
  return automation ? { declared, automation } : { none: `${e.label ? `${e.label}: ` : ""}no automation starts on it` };
}

export async function startByAutomation(jc: JobContext, prior: Ledger | null, e: IssueEvent): Promise<void> {
  const found = await matchingAutomation(jc.octokit, jc.delivery.repo, e);
  if ("none" in found) return jc.deps.log(`#${e.thread.number} ${e.event}: ${found.none}`);
  const { declared, automation: a } = found;
  jc.deps.log(`automation ${a.name} starts on #${e.thread.number} (${e.event}) for @${jc.delivery.sender.login}`);
  await startSession({ ...jc, readConfig: declared.readConfig }, prior, {
    issue: e.thread.number,
    title: e.thread.title,
    body: e.thread.body,
    instruction: null,
    followUp: false,
    automation: automationSource(a, declared),
  });
}

async function labelsOfIssue(octokit: JobContext["octokit"], repo: JobContext["delivery"]["repo"], issue: number): Promise<string[]> {
  const { data } = await octokit.rest.issues.listLabelsOnIssue({ owner: repo.owner, repo: repo.repo, issue_number: issue, per_page: 100 });
  return data.map((l) => l.name);
}
