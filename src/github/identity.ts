import type { Octokit } from "./octokit.js";

/**
 * The app's git identity: commits are authored by `<slug>[bot]` with GitHub's noreply address for
 * the bot user, so GitHub shows the app as author; the requester is credited with a
 * `Co-authored-by:` trailer using their noreply address (their real email is not ours to publish).
 */
export interface GitIdentity {
  name: string;
  email: string;
}

export function noreply(login: string, id: number): GitIdentity {
  return { name: login, email: `${id}+${login}@users.noreply.github.com` };
}

/** Asked once per app instance: GET /app (JWT) for the slug, then the bot user (installation token) for its id. */
export class AppIdentity {
  private value: Promise<GitIdentity> | null = null;

  constructor(private readonly appOctokit: () => Promise<Octokit>) {}

  get(installation: Octokit): Promise<GitIdentity> {
    this.value ??= this.resolve(installation).catch((e: unknown) => {
      this.value = null;
      throw e;
    });
    return this.value;
  }

  private async resolve(installation: Octokit): Promise<GitIdentity> {
    const app = await this.appOctokit();
    const { data } = await app.rest.apps.getAuthenticated();
    const login = `${data?.slug ?? "patchgate"}[bot]`;
    const { data: user } = await installation.rest.users.getByUsername({ username: login });
    return noreply(login, user.id);
  }
}
