import type { RouteResult } from "./github-routes.js";

/** GitHub's two answers every route gives: the 404 of an unknown object and the 422 of a refused field. */
export const notFound: RouteResult = { status: 404, body: { message: "Not Found", documentation_url: "https://docs.github.com/rest" } };
export const invalid = (message: string): RouteResult => ({ status: 422, body: { message: "Validation Failed", errors: [{ message }] } });
