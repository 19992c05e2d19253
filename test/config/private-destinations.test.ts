import { privateDestinationsFrom } from "../../src/config/private-destinations.js";
import { startupEnvProblem } from "../../src/github/startup-env.js";

const read = (value: string | undefined) => () => privateDestinationsFrom({ PATCHGATE_PRIVATE_DESTINATIONS: value });

describe("PATCHGATE_PRIVATE_DESTINATIONS", () => {
  test("unset or empty: nothing is declared", () => {
    expect(read(undefined)()).toEqual([]);
    expect(read(" , ")()).toEqual([]);
  });

  test("exact names and addresses, with or without a port, separated by commas or spaces", () => {
    expect(read("npm.corp.internal:4873, Build-Cache.internal  10.0.0.5:8443,[fd00::1]:9000")()).toEqual([
      { host: "npm.corp.internal", wildcard: false, port: 4873 },
      { host: "build-cache.internal", wildcard: false, port: null },
      { host: "10.0.0.5", wildcard: false, port: 8443 },
      { host: "fd00::1", wildcard: false, port: 9000 },
    ]);
  });

  test.each([
    ["*.corp.internal", '"*.corp.internal"'],
    ["svc.internal:99999", '"svc.internal:99999"'],
    ["https://svc.internal/", '"https://svc.internal/"'],
    ["ok.internal,bad_name.internal", '"bad_name.internal"'],
  ])("a bad entry (%s) is one typed line naming the variable and the entry", (value, shown) => {
    expect(read(value)).toThrow(
      expect.objectContaining({
        name: "PrivateDestinationError",
        kind: "invalid_private_destination",
        message: `PATCHGATE_PRIVATE_DESTINATIONS: ${shown} is not an exact host or host:port (no wildcards)`,
      }),
    );
  });

  test("the app's start checks it with the other variables", () => {
    expect(startupEnvProblem({ PATCHGATE_PRIVATE_DESTINATIONS: "*.internal" }, {})).toBe(
      'PATCHGATE_PRIVATE_DESTINATIONS: "*.internal" is not an exact host or host:port (no wildcards)',
    );
    expect(startupEnvProblem({ PATCHGATE_PRIVATE_DESTINATIONS: "svc.internal:8080" }, {})).toBeNull();
  });
});
