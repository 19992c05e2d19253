import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { HelperStdioTransport } from "./helper-stdio-transport.js";
import { isStdio, type McpServerConfig, type StdioServerConfig } from "./config.js";
import { hostEnvironment } from "../process/index.js";

/**
 * The transport to one configured server. A stdio server is a child process on the host — never in
 * the test sandbox — that sees the environment the operator wrote for it and PATH (to find its
 * command), nothing else of Patchgate's: none of the defaults (HOME, USER, SHELL…) the SDK's own
 * stdio transport would add. It is started by the spawn helper (helper-stdio-transport.ts).
 */

/** One message may be this large (a result the caller then caps); beyond it the connection is dropped. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Lines of a server's stderr kept to explain why it stopped. */
const STDERR_TAIL_CHARS = 2000;

export interface BuiltTransport {
  transport: Transport;
  kind: "stdio" | "http";
  /** The last bytes the server wrote to stderr (stdio only). */
  stderrTail: () => string;
}

export interface TransportPlaces {
  /** `${workspace}` in command, args, env and cwd. */
  workspaceRoot: string;
  /** Default working directory of stdio servers: the config file's directory. */
  configDir: string;
}

const substitute = (s: string, places: TransportPlaces) => s.split("${workspace}").join(places.workspaceRoot);

/** The child's whole environment: PATH, then exactly what the operator configured (nothing is added to it). */
export function serverEnvironment(s: Pick<StdioServerConfig, "env">, places: TransportPlaces, hostPath = hostEnvironment().PATH): Record<string, string> {
  const env: Record<string, string> = {};
  if (hostPath !== undefined) env.PATH = hostPath;
  for (const [k, v] of Object.entries(s.env)) env[k] = substitute(v, places);
  return env;
}

export function buildTransport(s: McpServerConfig, places: TransportPlaces): BuiltTransport {
  if (!isStdio(s)) {
    return { transport: new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } }), kind: "http", stderrTail: () => "" };
  }
  const transport = new HelperStdioTransport({
    command: substitute(s.command, places),
    args: s.args.map((a) => substitute(a, places)),
    env: serverEnvironment(s, places),
    cwd: s.cwd === undefined ? places.configDir : substitute(s.cwd, places),
    maxBufferSize: MAX_MESSAGE_BYTES,
  });
  let tail = "";
  // Read stderr always: a full pipe would block the server.
  transport.stderr.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  return { transport, kind: "stdio", stderrTail: () => tail };
}
