/**
 * Server-sent events, as chat-completions streams use them: `data:` lines, events separated by a
 * blank line, `:` comment lines (OpenRouter's keep-alives) ignored, `data: [DONE]` at the end.
 * Yields each event's data; returns when the body ends. Cancellation is the caller's (abort the fetch).
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer[nl] === "\r" ? 2 : 1));
        if (line === "") {
          if (data.length > 0) yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(5).replace(/^ /, ""));
        }
        // `event:`, `id:`, `retry:` and `:` comments carry nothing a completion needs.
      }
      if (done) break;
    }
    if (buffer.startsWith("data:")) data.push(buffer.slice(5).replace(/^ /, ""));
    if (data.length > 0) yield data.join("\n");
  } finally {
    reader.releaseLock();
  }
}
