/**
 * Command substitutions that survive inside a single word. shell-quote splits an unquoted `$(x)` into
 * operators (the grammar handles those), but inside double quotes (`"$(curl …)"`) it leaves them as
 * text. (Backticks were already rewritten to `$(…)` by shell-tokens.ts.) Single-quoted text is not
 * executed by the shell, but shell-quote has removed the quotes by now, so we cannot tell: we judge it
 * anyway, which can only make a decision stricter.
 */
export function embeddedSubstitutions(word: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < word.length; i++) {
    if (word[i] === "$" && word[i + 1] === "(") {
      let depth = 0;
      let j = i + 1;
      for (; j < word.length; j++) {
        if (word[j] === "(") depth++;
        else if (word[j] === ")" && --depth === 0) break;
      }
      // `$((1+2))` is arithmetic; judging "(1+2)" as a command is harmless and keeps this simple.
      found.push(word.slice(i + 2, j));
      i = j;
    }
  }
  return found.filter((s) => s.trim().length > 0);
}

/** argv as a shell would need it typed: every word that is not plainly literal is single-quoted. */
export function quoteWords(words: string[]): string {
  return words.map((w) => (w.length > 0 && /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/** For part texts of shell text shown to a human: shell-safe words stay bare, others are single-quoted. */
export function renderWords(words: string[]): string {
  return words
    .map((w) => {
      if (w.length > 0 && /^[\w@%+=:,./~$*?{}[\]!^-]+$/.test(w)) return w;
      if (/^[<>$]\(.*\)$/s.test(w)) return w; // substitution placeholders read better raw
      return `'${w.replace(/'/g, `'\\''`)}'`;
    })
    .join(" ");
}
