import { annotationProblem, type FakeAnnotation } from "./annotation-check.js";
import type { Handler, RouteResult } from "./github-routes.js";
import { invalid, notFound } from "./route-errors.js";
import type { FakeCheckRun, GitHubWorld } from "./github-state.js";

/**
 * Check runs, as GitHub serves them: created on a full commit sha, updated (output, status,
 * conclusion, buttons with identifiers of at most 20 characters), listed by commit, and their
 * annotations, which GitHub keeps apart from the output and appends to on every update.
 */
function checkRunView(w: GitHubWorld, c: FakeCheckRun): unknown {
  const { annotations, ...rest } = c;
  return { ...rest, output: { ...c.output, annotations_count: annotations.length }, app: { id: w.app.id, slug: w.app.slug } };
}

/** The output is stored without its annotations, which GitHub keeps apart and appends to. */
function applyOutput(w: GitHubWorld, c: FakeCheckRun, output: any): RouteResult | null {
  if (output === undefined) return null;
  const { annotations = [], ...rest } = output as { annotations?: FakeAnnotation[] };
  const problem = annotationProblem(w.bareRepo, c.head_sha, annotations);
  if (problem) return invalid(problem);
  c.output = rest;
  c.annotations.push(...annotations);
  return null;
}

export const CHECK_RUN_ROUTES: [string, string, Handler][] = [
  [
    "POST",
    "/repos/:o/:r/check-runs",
    (w, _p, b) => {
      if (!b.name || !b.head_sha) return invalid("name and head_sha are required");
      // GitHub wants a full commit sha: a short or symbolic ref is refused, which the tests rely on.
      if (!/^[0-9a-f]{40}$/.test(String(b.head_sha))) return invalid(`head_sha ${JSON.stringify(b.head_sha)} is not a 40-character commit sha`);
      const id = w.id();
      const c: FakeCheckRun = {
        id,
        name: b.name,
        head_sha: b.head_sha,
        status: b.status ?? "queued",
        conclusion: b.conclusion ?? null,
        details_url: b.details_url,
        external_id: b.external_id,
        output: {},
        actions: b.actions ?? [],
        html_url: `${w.htmlBase}/${w.owner}/${w.repo}/runs/${id}`,
        annotations: [],
      };
      const refused = applyOutput(w, c, b.output);
      if (refused) return refused;
      w.checkRuns.push(c);
      return { status: 201, body: checkRunView(w, c) };
    },
  ],
  [
    "PATCH",
    "/repos/:o/:r/check-runs/:id",
    (w, p, b) => {
      const c = w.checkRuns.find((x) => x.id === Number(p.id));
      if (!c) return notFound;
      if (b.actions?.some((a: { identifier: string }) => a.identifier.length > 20)) return invalid("action identifier is too long (maximum is 20 characters)");
      const refused = applyOutput(w, c, b.output);
      if (refused) return refused;
      for (const k of ["status", "conclusion", "details_url", "actions"] as const) if (b[k] !== undefined) (c as any)[k] = b[k];
      return { status: 200, body: checkRunView(w, c) };
    },
  ],
  [
    "GET",
    "/repos/:o/:r/check-runs/:id",
    (w, p) => {
      const c = w.checkRuns.find((x) => x.id === Number(p.id));
      return c ? { status: 200, body: checkRunView(w, c) } : notFound;
    },
  ],
  [
    "GET",
    "/repos/:o/:r/commits/:ref/check-runs",
    (w, p, _b, q) => {
      // Only full shas here (GitHub also takes branch and tag names, which no caller uses).
      const name = q.get("check_name");
      const runs = w.checkRuns.filter((c) => c.head_sha === p.ref && (name === null || c.name === name));
      const perPage = Math.min(100, Number(q.get("per_page") ?? 30));
      const page = Number(q.get("page") ?? 1);
      return { status: 200, body: { total_count: runs.length, check_runs: runs.slice((page - 1) * perPage, page * perPage).map((c) => checkRunView(w, c)) } };
    },
  ],
  [
    "GET",
    "/repos/:o/:r/check-runs/:id/annotations",
    (w, p, _b, q) => {
      const c = w.checkRuns.find((x) => x.id === Number(p.id));
      if (!c) return notFound;
      const perPage = Math.min(100, Number(q.get("per_page") ?? 30));
      const page = Number(q.get("page") ?? 1);
      const body = c.annotations
        .slice((page - 1) * perPage, page * perPage)
        .map((a) => ({ ...a, blob_href: `${w.htmlBase}/${w.owner}/${w.repo}/blob/${c.head_sha}/${a.path}` }));
      return { status: 200, body };
    },
  ],
];
