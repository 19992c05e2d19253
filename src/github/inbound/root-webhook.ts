import type { IncomingMessage, ServerResponse } from "node:http";
import { createNodeMiddleware } from "@octokit/webhooks";
import type { Probot } from "probot";

/**
 * Deliveries POSTed to `/` are received exactly like those on the webhook path. Probot's manifest
 * flow (`npm start` without APP_ID) registers the new app's webhook URL as `<base>/`, and app.yml
 * cannot name the right path: Probot spreads app.yml over the hook it generates, so a
 * `hook_attributes` there would have to spell out the whole URL, which only the operator knows. So the
 * registered URL is made to work instead. Same verification (signature, headers, content type), same
 * handlers, same answers; anything but a POST to `/` is left to the other routes.
 */
export function rootWebhookHandler(app: Probot) {
  const middleware = createNodeMiddleware(app.webhooks, { path: "/", log: app.log });
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== "POST" || (req.url ?? "").split("?")[0] !== "/") return false;
    return middleware(req, res);
  };
}
