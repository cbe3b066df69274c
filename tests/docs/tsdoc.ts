// The TSDoc block right above a declaration, read from the source text.

/** The comment block that ends on the line before `name`'s declaration, or "" when none. */
export function docOf(source: string, name: string): string {
  const declaration = new RegExp(
    `^[ \\t]*(?:export )?(?:async )?(?:(?:function|const|class|type|interface) )?${name}\\b[^\\n]*$`,
    "m",
  );
  const match = declaration.exec(source);
  if (!match) return "";
  const before = source.slice(0, match.index).trimEnd();
  if (!before.endsWith("*/")) return "";
  return before.slice(before.lastIndexOf("/**"));
}

/** The names an index module exports as values or types, with `export *` modules left to the caller. */
export function exportedNames(index: string): string[] {
  return [...index.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!
      .split(",")
      .map((part) =>
        part
          .replace(/^\s*type\s+/, "")
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      )
      .filter(Boolean),
  );
}
