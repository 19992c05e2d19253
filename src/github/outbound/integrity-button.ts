/**
 * The check run's Approve tests button. Its identifier names the test_integrity request it decides:
 * this prefix and the first 10 hex of the request's digest, 20 characters in all (GitHub's limit).
 */
export const INTEGRITY_BUTTON = "integrity:";

export function integrityButton(digest: string): string {
  return `${INTEGRITY_BUTTON}${digest.slice(0, 10)}`;
}
