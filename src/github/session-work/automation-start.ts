import { triggerOf, type Automation } from "../../config/automations.js";
import type { Ledger } from "../../store/ledger.js";
import type { JobContext } from "../deps.js";
import type { Intent } from "../inbound/intent.js";
import { automationSource, automationsOf, readAutomations } from "./automation-config.js";
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

export async function startByAutomation(jc: JobContext, prior: Ledger | null, e: IssueEvent): Promise<void> {
  const { repo } = jc.delivery;
  const declared = await readAutomations(jc.octokit, repo);
  if (!declared || automationsOf(declared).length === 0)
    return jc.deps.log(`#${e.thread.number} ${e.event}: ${declared?.config.ok === false ? "the config is invalid" : "no automation is declared"}`);
  const labelsOn = e.event === "issue_opened" ? await labelsOfIssue(jc, e.thread.number) : [];
  const a = automationsOf(declared).find((x) => matches(x, e, labelsOn));
  if (!a) return jc.deps.log(`#${e.thread.number} ${e.event}${e.label ? ` ${e.label}` : ""}: no automation starts on it`);
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

async function labelsOfIssue(jc: JobContext, issue: number): Promise<string[]> {
  const { repo } = jc.delivery;
  const { data } = await jc.octokit.rest.issues.listLabelsOnIssue({ owner: repo.owner, repo: repo.repo, issue_number: issue, per_page: 100 });
  return data.map((l) => l.name);
}
