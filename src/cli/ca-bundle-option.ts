import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { hostEnvironment } from "../process/index.js";
import { CaBundleError, writeCaBundle } from "../sandbox/ca-bundle.js";
import { UsageError } from "./usage-error.js";

/**
 * The CA bundle a CLI session's networked setup trusts, made in the data directory before the
 * session exists: PATCHGATE_CA_BUNDLE, else the host's NODE_EXTRA_CA_CERTS and system bundle. A
 * variable naming a bad file is a usage error naming the variable and the file.
 */
export function caBundleFromCli(
  dataDir: string,
  env: OperatorEnv = processOperatorEnv(),
  host: Readonly<Record<string, string | undefined>> = hostEnvironment(),
): string | null {
  try {
    return writeCaBundle(dataDir, { PATCHGATE_CA_BUNDLE: env.PATCHGATE_CA_BUNDLE, NODE_EXTRA_CA_CERTS: host.NODE_EXTRA_CA_CERTS });
  } catch (e) {
    if (CaBundleError.isInstance(e)) throw new UsageError(e.message);
    throw e;
  }
}
