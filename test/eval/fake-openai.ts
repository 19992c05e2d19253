import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptAnswer } from "../../src/eval/script-schema.js";

/**
 * A real HTTP server speaking the chat-completions protocol, standing in for an OpenAI-compatible
 * provider: it plays a list of answers in order. The eval's `--llm openai` path then runs through
 * the real OpenAI SDK client, retries and usage accounting included.
 */
export async function fakeOpenAI(answers: ScriptAnswer[]): Promise<{ baseURL: string; requests: unknown[]; close: () => Promise<void> }> {
  const queue = [...answers];
  const requests: unknown[] = [];
  let calls = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { tools?: unknown[]; model: string };
      requests.push(parsed);
      const next = queue.shift();
      if (!next || next.kind === "error") {
        res.writeHead(next?.kind === "error" ? next.status : 500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: next ? "scripted error" : "script exhausted", type: "server_error" } }));
        return;
      }
      const tool_calls = next.calls.map((c) => ({
        id: `call_${++calls}`,
        type: "function",
        function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) },
      }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${calls}`,
          object: "chat.completion",
          created: 0,
          model: parsed.model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: next.content, ...(tool_calls.length > 0 && { tool_calls }) },
              finish_reason: tool_calls.length > 0 ? "tool_calls" : "stop",
            },
          ],
          usage: { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
