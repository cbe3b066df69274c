// The option names a doc passes to a call such as `createLockManager({ ... })`.

/** The top-level text of the object literal that starts at `open` (nested parts dropped). */
function topLevel(text: string, open: number): string {
  let depth = 0;
  let out = "";
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if ("}])".includes(c) && --depth === 0) return out;
    if (depth === 1 && !"{[(".includes(c)) out += c;
    if ("{[(".includes(c)) depth++;
  }
  return out;
}

/** Each call's option names: shorthand and `key: value` alike; spreads left out. */
export function optionsPassed(markdown: string, call: string): string[][] {
  const text = markdown.replace(/(^|\s)\/\/[^\n]*/gm, "$1"); // line comments: a call named in passing
  const calls = [...text.matchAll(new RegExp(`\\b${call}\\(\\{`, "g"))];
  return calls.map((m) =>
    topLevel(text, m.index + call.length + 1)
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "" && !part.startsWith("..."))
      .map((part) => /^(\w+)/.exec(part)?.[1] ?? part),
  );
}
