// Search by title in both languages, with PostgreSQL's pg_trgm: every word of the query must be
// part of the English or the Chinese title (ILIKE, which the trigram GIN index
// products_title_trgm_idx serves for words of three characters or more); when nothing matches, a
// word-similarity match (`<%`, the same index) forgives a typo. Ranked by word similarity.
import { Prisma } from "@orderbot/db";
import { z } from "zod";
import type { Sql } from "../database/sql.ts";
import { productView, type ProductView } from "../views.ts";

/** The last page of results a search can ask for. */
export const SEARCH_MAX_PAGE = 1000;
/** A title search, not a document: later words are dropped. */
const MAX_WORDS = 5;

export interface SearchPage {
  /** The words searched for, joined by spaces: what the next page must be asked with. */
  query: string;
  items: ProductView[];
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
  /** Nothing held every word: these are near matches (a typo forgiven). */
  fuzzy: boolean;
}

/** Lowercase words, split on spaces and punctuation, each once, at most MAX_WORDS. */
export function searchWords(query: string): string[] {
  const words: string[] = [];
  for (const word of query.toLowerCase().split(/[\s\p{P}\p{S}]+/u)) {
    if (word && !words.includes(word) && words.length < MAX_WORDS) words.push(word);
  }
  return words;
}

const optionsSchema = z.object({
  page: z.number().int().min(1).max(SEARCH_MAX_PAGE).default(1),
  pageSize: z.number().int().min(1).max(50).default(8),
  /** When nothing holds every word, near matches (a typo forgiven); off for chat text. */
  fuzzy: z.boolean().default(true),
});

/** The expression the trigram index is built on (see the migration). */
const TITLES = Prisma.sql`(p.title_en || ' ' || p.title_zh)`;

function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function searchProducts(
  db: Sql,
  query: string,
  options: { page?: number; pageSize?: number; fuzzy?: boolean } = {},
): Promise<SearchPage> {
  const { page, pageSize, fuzzy } = optionsSchema.parse(options);
  const words = searchWords(query);
  const joined = words.join(" ");
  const empty = { query: joined, items: [], page, pageSize, total: 0, hasMore: false };
  if (words.length === 0) return { ...empty, fuzzy: false };

  const every = Prisma.join(
    words.map((w) => Prisma.sql`${TITLES} ILIKE ${likePattern(w)}`),
    " AND ",
  );
  const strict = await pageOf(db, every, joined, page, pageSize);
  if (strict.total > 0 || !fuzzy || [...joined].length < 4)
    return { ...empty, ...strict, fuzzy: false };
  const near = await pageOf(db, Prisma.sql`${joined} <% ${TITLES}`, joined, page, pageSize);
  return { ...empty, ...near, fuzzy: near.total > 0 };
}

async function pageOf(
  db: Sql,
  condition: Prisma.Sql,
  query: string,
  page: number,
  pageSize: number,
) {
  const [counted] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM products p WHERE p.active AND ${condition}`;
  const total = counted?.n ?? 0;
  if (total === 0) return { items: [], total, hasMore: false };
  const rows = await db.$queryRaw<{ id: number }[]>`
    SELECT p.id FROM products p WHERE p.active AND ${condition}
    ORDER BY word_similarity(${query}, ${TITLES}) DESC, p.id
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  const products = await db.product.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
  const byId = new Map(products.map((p) => [p.id, p]));
  const items = rows.flatMap((r) => {
    const p = byId.get(r.id);
    return p ? [productView(p)] : [];
  });
  return { items, total, hasMore: page * pageSize < total };
}
