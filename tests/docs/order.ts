// The order in which named steps first appear in a text: code and the doc that draws it must agree.

/** The names of `markers` sorted by where their pattern first matches; unmatched ones left out. */
export function orderOf(text: string, markers: Readonly<Record<string, RegExp>>): string[] {
  return Object.entries(markers)
    .map(([name, pattern]) => ({ name, at: text.search(pattern) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ name }) => name);
}

/** The first fenced block after `heading` (a line of the Markdown), or "" when none. */
export function blockAfter(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return "";
  return /```[^\n]*\n([\s\S]*?)```/.exec(markdown.slice(start))?.[1] ?? "";
}
