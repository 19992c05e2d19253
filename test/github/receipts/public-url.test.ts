import { join } from "node:path";
import { rmSync } from "node:fs";
import { publicUrlFromEnv, receiptSettings } from "../../../src/github/receipt-settings.js";
import { startupEnvProblem } from "../../../src/github/startup-env.js";
import { tempDir } from "../../helpers/git-fixture.js";

/**
 * PATCHGATE_PUBLIC_URL: the app's public base URL, from which the check run's verification line names
 * the keys route; only an http(s) URL is taken, anything else stops the start with one line naming it.
 */
describe("the app's public URL", () => {
  let root: string;
  beforeAll(() => {
    root = tempDir("pg-public-url-");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("gives the keys route under it, a path prefix kept", () => {
    const data = join(root, "data");
    expect(receiptSettings(data, { PATCHGATE_PUBLIC_URL: "https://patchgate.example.com" }).keysUrl).toBe("https://patchgate.example.com/patchgate/keys");
    expect(receiptSettings(data, { PATCHGATE_PUBLIC_URL: "https://example.com/bots/pg/" }).keysUrl).toBe("https://example.com/bots/pg/patchgate/keys");
    expect(receiptSettings(data, { PATCHGATE_PUBLIC_URL: "http://127.0.0.1:3000/pg" }).keysUrl).toBe("http://127.0.0.1:3000/pg/patchgate/keys");
  });

  test("unset or empty: no keys URL", () => {
    expect(receiptSettings(join(root, "data"), {}).keysUrl).toBeNull();
    expect(publicUrlFromEnv({ PATCHGATE_PUBLIC_URL: " " })).toBeNull();
  });

  test.each([
    "patchgate.example.com",
    "ftp://example.com",
    "javascript:alert(1)",
    "https://user:pw@example.com",
    "https://example.com/?x=1",
    "https://example.com/#k",
  ])("%s stops the start, naming the variable", (value) => {
    const problem = startupEnvProblem({ PATCHGATE_PUBLIC_URL: value, PATCHGATE_DATA_DIR: join(root, "data") }, {});
    expect(problem).toBe(`PATCHGATE_PUBLIC_URL must be the app's http(s) base URL (no credentials, query or fragment), not ${JSON.stringify(value)}`);
    expect(() => receiptSettings(join(root, "data"), { PATCHGATE_PUBLIC_URL: value })).toThrow(/^PATCHGATE_PUBLIC_URL must be/);
  });

  test("a good value is no start problem", () => {
    expect(startupEnvProblem({ PATCHGATE_PUBLIC_URL: "https://patchgate.example.com", PATCHGATE_DATA_DIR: join(root, "data") }, {})).toBeNull();
  });
});
