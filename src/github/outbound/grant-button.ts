/**
 * The check run's Allow button for a waiting grant request. Its identifier names the request it
 * decides: this prefix and the first 14 hex of the request's digest, 20 characters in all (GitHub's limit).
 */
export const GRANT_BUTTON = "grant:";

export function grantButton(digest: string): string {
  return `${GRANT_BUTTON}${digest.slice(0, 14)}`;
}
