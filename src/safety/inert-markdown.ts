import type { Definition } from "mdast";
import { codeBlock, inlineCode } from "./markdown.js";
import { applyEdits, endOf, parseMarkdown, startOf, visit, type Edit, type Nodes } from "./markdown-tree.js";

/**
 * Markdown that cannot act when GitHub renders it. Text posted to GitHub is shaped by untrusted
 * input, and rendered markdown can leak or hide: an image (or `<img>`) makes every reader's browser
 * fetch a URL that can carry data out (through GitHub's image proxy, the "CamoLeak" shape); a link
 * or autolink to another host invites a click; an HTML comment or a link reference definition hides
 * text from the reviewer. So images and raw HTML become visible text, links keep their text and show
 * a foreign URL as code (links into the repository itself stay links), definitions are shown, and
 * HTML comments are removed. Code spans and blocks are left exactly as they are: GitHub renders
 * nothing inside them.
 */
export interface InertOptions {
  /** `https://github.com/<owner>/<repo>`: links below it stay links. */
  ownUrl?: string;
  /** Attribute-free tags that stay HTML (`details`, `sub`…): for Patchgate's own text, never the model's. */
  allowTags?: readonly string[];
  /** Only HTML (comments removed, tags escaped): for model text inside a body the gate will see whole. */
  htmlOnly?: boolean;
}

const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** Rendering an edit can create what it removed (a link's text that is itself a URL): bounded re-passes. */
const MAX_PASSES = 4;

export function inertMarkdown(text: string, opts: InertOptions = {}): string {
  let out = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = onePass(out, opts);
    if (next === out) return out;
    out = next;
  }
  // Still changing: show it all as code rather than risk what is left.
  return codeBlock(out);
}

function isOwn(url: string, ownUrl: string | undefined): boolean {
  if (!ownUrl) return false;
  try {
    const u = new URL(url);
    const own = new URL(ownUrl);
    const path = u.pathname.toLowerCase();
    const ownPath = own.pathname.replace(/\/$/, "").toLowerCase();
    return u.origin === own.origin && (path === ownPath || path.startsWith(`${ownPath}/`));
  } catch {
    // Relative, protocol-relative or not a URL: it resolves somewhere we cannot vouch for.
    return false;
  }
}

/** A URL as inline code that cannot break out of a table cell. */
const urlCode = (url: string): string => inlineCode(url.replace(/\|/g, "%7C"));

/** Raw HTML stays only when every tag in it is an allowed attribute-free one; otherwise it is shown as code. */
function inertHtml(source: string, allow: readonly string[]): string {
  const html = source.replace(COMMENT, "");
  const names = allow.map((t) => t.replace(/[^a-z0-9]/gi, "")).join("|");
  const tags = html.match(/<[^>]*>?/g) ?? [];
  const ok = names !== "" && tags.every((t) => new RegExp(`^</?(?:${names})\\s*/?>$`, "i").test(t));
  if (ok || html.trim() === "") return html;
  return inlineCode(html.trim());
}

/** Nothing in `text` could render as an image, link, autolink, definition or HTML: no parse needed. */
function plain(text: string, opts: InertOptions): boolean {
  return opts.htmlOnly ? !text.includes("<") : !/[<[\]]|:\/\/|www\.|@|mailto:|xmpp:/i.test(text);
}

function onePass(text: string, opts: InertOptions): string {
  if (plain(text, opts)) return text;
  const tree = parseMarkdown(text);
  const definitions = new Map<string, Definition>();
  visit(tree, (n) => {
    if (n.type === "definition") definitions.set(n.identifier, n);
  });
  const edits: Edit[] = [];
  const whole = (n: Nodes, replacement: string) => edits.push({ start: startOf(n), end: endOf(n), text: replacement });
  const source = (n: Nodes) => text.slice(startOf(n), endOf(n));
  // A link's text stays; what wraps it (`[`, `](url "title")`, `][ref]`) is replaced.
  const rewrap = (n: Nodes & { children: Nodes[] }, open: string, close: string) => {
    const last = n.children.at(-1);
    const inner = last ? endOf(last) : startOf(n) + 1;
    edits.push({ start: startOf(n), end: n.children[0] ? startOf(n.children[0]) : inner, text: open });
    edits.push({ start: inner, end: endOf(n), text: close });
  };
  visit(tree, (n) => {
    switch (n.type) {
      case "code":
      case "inlineCode":
        return false;
      case "image":
      case "imageReference": {
        if (opts.htmlOnly) return false;
        const url = n.type === "image" ? n.url : (definitions.get(n.identifier)?.url ?? "");
        whole(n, `image ${inlineCode(n.alt ?? "")} from ${urlCode(url)}`);
        return false;
      }
      case "link":
      case "linkReference": {
        if (opts.htmlOnly) return;
        const url = n.type === "link" ? n.url : (definitions.get(n.identifier)?.url ?? "");
        const title = n.type === "link" ? n.title : definitions.get(n.identifier)?.title;
        if (text[startOf(n)] !== "[") {
          // An autolink (`https://…`, `www.…`, `<…>`, an address): its text is the URL.
          if (!isOwn(url, opts.ownUrl)) whole(n, urlCode(source(n).replace(/^<|>$/g, "")));
          return false;
        }
        if (!isOwn(url, opts.ownUrl)) rewrap(n, "", ` (${urlCode(url)})`);
        else if (title || n.type === "linkReference") rewrap(n, "[", `](${url})`);
        return;
      }
      case "definition":
        if (opts.htmlOnly) return false;
        whole(n, inlineCode(source(n)));
        return false;
      case "html":
        whole(n, inertHtml(source(n), opts.allowTags ?? []));
        return false;
      default:
        return;
    }
  });
  return applyEdits(text, edits);
}
