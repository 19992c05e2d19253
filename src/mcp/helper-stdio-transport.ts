import { once } from "node:events";
import { PassThrough } from "node:stream";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { startProcess, type StartedProcess } from "../process/index.js";

export interface HelperStdioServer {
  command: string;
  args: string[];
  /** The server's whole environment. */
  env: Record<string, string>;
  cwd: string;
  maxBufferSize: number;
}

/** How long close() waits after ending stdin, then after SIGTERM, before the next step. */
const CLOSE_STEP_MS = 2_000;

/**
 * A stdio MCP server, JSON-RPC lines over its stdin and stdout, started by the spawn helper like every
 * process (the SDK's own stdio transport forks from the app's process). Framing is the SDK's
 * (ReadBuffer, serializeMessage), so messages read exactly as with its transport; stderr is a stream
 * from the start, so nothing the server says before it is read is lost.
 */
export class HelperStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly stderr = new PassThrough();
  private child: StartedProcess | undefined;
  private readonly buffer: ReadBuffer;

  constructor(private readonly server: HelperStdioServer) {
    this.buffer = new ReadBuffer({ maxBufferSize: server.maxBufferSize });
  }

  start(): Promise<void> {
    if (this.child) throw new Error("HelperStdioTransport already started");
    const { command, args, env, cwd } = this.server;
    const child = startProcess({ command, args, env, cwd });
    this.child = child;
    child.stderr.pipe(this.stderr);
    child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
    child.once("close", () => {
      this.child = undefined;
      this.onclose?.();
    });
    return new Promise((resolve, reject) => {
      child.once("spawn", resolve);
      child.on("error", (e: Error) => {
        reject(e);
        this.onerror?.(e);
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) throw new Error("the MCP server is not running");
    if (!stdin.write(serializeMessage(message))) await once(stdin, "drain");
  }

  /** Ends stdin, then SIGTERM, then SIGKILL, each after CLOSE_STEP_MS without an exit. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const closed = once(child, "close").then(() => true);
    const step = (): Promise<boolean> => Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), CLOSE_STEP_MS).unref())]);
    child.stdin?.end();
    if (await step()) return;
    child.kill("SIGTERM");
    if (await step()) return;
    child.kill("SIGKILL");
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
    } catch (e) {
      this.onerror?.(e as Error);
      void this.close();
    }
  }
}
