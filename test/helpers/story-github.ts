import { join } from "node:path";
import { createBareRepo } from "../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../fakes/github/github-server.js";
import { STORY_FILES, STORY_PERMISSIONS } from "../harness/story.js";

/** The fake GitHub with the story's repository under `root/remote`, its people and its `.github/patchgate.yml`. */
export async function storyGitHub(root: string, files: Record<string, string> = STORY_FILES): Promise<{ github: FakeGitHub; bare: string }> {
  const bare = createBareRepo(join(root, "remote"), "octo-org", "calculator", files);
  const github = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
  for (const [login, role] of Object.entries(STORY_PERMISSIONS)) github.world.permissions.set(login, role);
  github.world.files.set(".github/patchgate.yml", files[".github/patchgate.yml"]);
  return { github, bare };
}
