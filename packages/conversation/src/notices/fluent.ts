// The shop's Fluent texts (locales/), loaded once per process: the worker renders its notices with
// the same messages the bot speaks, so a state has one name everywhere.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { FluentBundle, FluentResource, type FluentVariable } from "@fluent/bundle";
import { LOCALES, LOCALES_DIR, type Locale } from "../languages.ts";

export type Args = Record<string, FluentVariable>;

function loadBundle(locale: Locale): FluentBundle {
  // No Unicode isolation marks around values: they show up as stray characters in some clients.
  const bundle = new FluentBundle(locale, { useIsolating: false });
  const dir = path.join(LOCALES_DIR, locale);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".ftl"))
    .sort()) {
    const errors = bundle.addResource(
      new FluentResource(readFileSync(path.join(dir, file), "utf8")),
    );
    if (errors.length > 0) throw new Error(`${locale}/${file}: ${errors[0]!.message}`);
  }
  return bundle;
}

let bundles: Map<Locale, FluentBundle> | undefined;
/** Read once, at the first message: the files ship with the code. */
function bundleOf(locale: Locale): FluentBundle {
  bundles ??= new Map(LOCALES.map((l) => [l, loadBundle(l)]));
  return bundles.get(locale)!;
}

export class UnknownTemplateError extends Error {
  override name = "UnknownTemplateError";
  constructor(readonly template: string) {
    super(`unknown notification template: ${template}`);
  }
}

export function hasMessage(locale: Locale, id: string): boolean {
  return bundleOf(locale).hasMessage(id);
}

/** A message of the bundle; throws for a missing one so that no half-rendered text is sent. */
export function format(locale: Locale, id: string, args: Args): string {
  const bundle = bundleOf(locale);
  const pattern = bundle.getMessage(id)?.value;
  if (!pattern) throw new UnknownTemplateError(id);
  const errors: Error[] = [];
  const text = bundle.formatPattern(pattern, args, errors);
  if (errors.length > 0) throw new Error(`${locale}/${id}: ${errors[0]!.message}`);
  return text;
}

/** Looks a word up in the glossary, or shows the raw value when it has none. */
export function word(locale: Locale, id: string, fallback: string): string {
  return hasMessage(locale, id) ? format(locale, id, {}) : fallback;
}
