import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../github/http-util.js";
import type { ProviderProfile } from "./providers.js";

/** The models a fake lists unless told otherwise: the names the repository's tests run under. */
export const DEFAULT_LISTED_MODELS = ["fake-model", "gpt-4.1-mini"];

/**
 * `GET <base>/models` as the providers answer it: the key checked first (401 in the provider's error
 * shape), then `{object: "list", data: [{id, object: "model", created, owned_by}]}`. Azure's listing
 * wants `api-version` and the `api-key` header. Returns false when the request is not a listing.
 */
export function answerModelList(req: IncomingMessage, res: ServerResponse, url: URL, profile: ProviderProfile, models: readonly string[]): boolean {
  if (req.method !== "GET" || !/^\/(v1|openai)\/models$/.test(url.pathname)) return false;
  const azure = profile.name === "azure";
  const keyed = azure ? typeof req.headers["api-key"] === "string" : /^Bearer \S+/.test(req.headers.authorization ?? "");
  if (!keyed) {
    sendJson(
      res,
      401,
      profile.errorBody(azure ? "Access denied due to invalid subscription key." : "You didn't provide an API key.", 401, null, "invalid_api_key"),
    );
    return true;
  }
  if (azure && !url.searchParams.get("api-version")) {
    sendJson(res, 404, profile.errorBody("Resource not found", 404, null));
    return true;
  }
  sendJson(res, 200, { object: "list", data: models.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "fake" })) });
  return true;
}
