/** The languages whose test code the detectors read; a file of another language is judged by path only. */
export type TestLanguage = "js" | "python" | "go" | "rust";

const EXTENSIONS: ReadonlyArray<readonly [RegExp, TestLanguage]> = [
  [/\.(?:[cm]?[jt]sx?)$/i, "js"],
  [/\.pyi?$/i, "python"],
  [/\.go$/i, "go"],
  [/\.rs$/i, "rust"],
];

export function languageOf(path: string): TestLanguage | null {
  for (const [ext, language] of EXTENSIONS) if (ext.test(path)) return language;
  return null;
}

/**
 * The text with its comments blanked (newlines kept, so line numbers hold): a marker or an assertion
 * that only sits in a comment does not run. Strings are skipped over so `"http://x"` stays whole.
 * A scanner, not a parser: a regular-expression literal is read as code, so one holding `//`, `/*`
 * or a quote can be misread; test code seldom holds one, and a misread only moves a count.
 */
export function withoutComments(language: TestLanguage, text: string): string {
  return language === "python" ? pythonWithoutComments(text) : cLikeWithoutComments(text);
}

function blank(s: string): string {
  return s.replace(/[^\n]/g, " ");
}

const C_QUOTES = "\"'`";

function cLikeWithoutComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (C_QUOTES.includes(c) && !(c === "'" && /\w/.test(text[i - 1] ?? ""))) {
      // A quote after a word character is a Rust lifetime or a char in a word, not a string.
      const stop = stringEnd(text, i, c);
      out += text.slice(i, stop);
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index just past the string that opens at `start`; a line end closes all but template strings. */
function stringEnd(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === quote) return i + 1;
    else if (c === "\n" && quote !== "`") return i;
    else i++;
  }
  return text.length;
}

function pythonWithoutComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "#") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const stop = triple ? tripleEnd(text, i, c.repeat(3)) : stringEnd(text, i, c);
      out += text.slice(i, stop);
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function tripleEnd(text: string, start: number, quotes: string): number {
  const end = text.indexOf(quotes, start + 3);
  return end === -1 ? text.length : end + 3;
}
