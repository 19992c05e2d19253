/**
 * Reading settings out of configuration text written as JSON, YAML turned into JSON, or JavaScript:
 * the value written after a key, whatever the file's syntax. A scanner, kept to what the detectors
 * compare (a key's value changed, a number lowered).
 */

const OPEN = "[{(";
const CLOSE = "]})";

/** The end of the value starting at `i`: its balanced brackets, or up to the next comma or line end. */
function valueEnd(text: string, i: number): number {
  if (OPEN.includes(text[i] ?? "")) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      if (OPEN.includes(text[j])) depth++;
      else if (CLOSE.includes(text[j]) && --depth === 0) return j + 1;
    }
    return text.length;
  }
  const m = /[,\n}]/.exec(text.slice(i));
  return m ? i + m.index : text.length;
}

/** Every value written after `key:` (quoted or not), whitespace collapsed, in order. */
export function valuesOf(text: string, key: string): string[] {
  const escaped = key.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
  const re = new RegExp(`(?<![\\w-])["']?${escaped}["']?\\s*:\\s*`, "g");
  const out: string[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].length;
    out.push(text.slice(start, valueEnd(text, start)).replace(/\s+/g, " ").trim());
  }
  return out;
}

/** The smallest number among the key's values; undefined when the key holds none. */
export function lowestNumber(text: string, key: string): number | undefined {
  const numbers = valuesOf(text, key)
    .map((v) => /^["']?(-?\d+(?:\.\d+)?)/.exec(v)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  return numbers.length === 0 ? undefined : Math.min(...numbers);
}
