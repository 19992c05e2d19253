import type { Handler } from "./github-routes.js";

/**
 * The app-level REST routes (JWT-authenticated, under `/app`): the installation, and the app's
 * webhook deliveries as GitHub's "Recent deliveries" keeps them — listed newest first with a cursor
 * in the `Link` header, and redelivered on request (202; the attempt itself happens afterwards).
 */
export const APP_ROUTES: [string, string, Handler][] = [
  [
    "GET",
    "/app/installations/:id",
    (w, p) => {
      if (!w.installed || Number(p.id) !== w.installationId) return { status: 404, body: { message: "Not Found" } };
      return {
        status: 200,
        body: {
          id: w.installationId,
          account: { login: w.owner, type: "Organization" },
          app_id: w.app.id,
          app_slug: w.app.slug,
          target_type: "Organization",
          repository_selection: "selected",
        },
      };
    },
  ],
  [
    "GET",
    "/app/hook/deliveries",
    (w, _p, _b, q) => {
      const perPage = Math.min(100, Number(q.get("per_page") ?? 30));
      const cursor = q.get("cursor");
      const { items, next } = w.hooks.page(perPage, cursor === null ? null : Number(cursor));
      const headers: Record<string, string> =
        next === null ? {} : { link: `<${w.htmlBase}/api/v3/app/hook/deliveries?per_page=${perPage}&cursor=${next}>; rel="next"` };
      return { status: 200, body: items, headers };
    },
  ],
  [
    "POST",
    "/app/hook/deliveries/:id/attempts",
    (w, p) => {
      const attempt = w.hooks.redeliver(Number(p.id));
      if (!attempt) return { status: 404, body: { message: "Not Found" } };
      // GitHub answers at once and attempts the delivery afterwards.
      void attempt.catch(() => {});
      return { status: 202, body: {} };
    },
  ],
];
