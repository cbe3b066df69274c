// Method arguments the way the Bot API server sees them: every field is a string (JSON bodies are
// flattened, objects and arrays re-encoded as JSON), parsed per field on use. This is why a
// `reply_markup` may arrive as an object in JSON or as a JSON string in a form, and both work.
import { badRequest, parameterRequired } from "./errors.ts";

export class Args {
  private readonly values: Map<string, string>;
  private readonly original: Record<string, unknown>;

  constructor(fields: Record<string, unknown>) {
    this.original = fields;
    this.values = new Map();
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined || value === null) continue;
      this.values.set(key, typeof value === "string" ? value : JSON.stringify(value));
    }
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The field as it arrived: a string, a decoded JSON value, or an uploaded file's note. */
  raw(name: string): unknown {
    return this.original[name];
  }

  /** The raw string, "" when absent (the Bot API treats both alike). */
  str(name: string): string {
    return this.values.get(name) ?? "";
  }

  /** A required non-empty string: `parameter "name" is required` otherwise. */
  required(name: string): string {
    const value = this.str(name);
    if (value === "") throw parameterRequired(name);
    return value;
  }

  /** An integer like the Bot API reads one: absent gives the default, garbage gives 0, clamped. */
  int(
    name: string,
    fallback: number,
    min = Number.MIN_SAFE_INTEGER,
    max = Number.MAX_SAFE_INTEGER,
  ): number {
    const raw = this.str(name).trim();
    if (raw === "") return fallback;
    const match = /^[+-]?\d+/.exec(raw);
    const parsed = match ? Number(match[0]) : 0;
    return Math.min(max, Math.max(min, Number.isFinite(parsed) ? parsed : 0));
  }

  /** "true", "yes" and "1" (any case) are true, as in the Bot API. */
  bool(name: string): boolean {
    const raw = this.str(name).trim().toLowerCase();
    return raw === "true" || raw === "yes" || raw === "1";
  }

  /** A JSON-encoded field; `undefined` when absent, `onError` thrown when it does not parse. */
  json(name: string, onError: string): unknown {
    const raw = this.str(name);
    if (raw === "") return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      throw badRequest(onError);
    }
  }

  /** A user id (`user_id`): a positive integer or "invalid user_id specified". */
  userId(name = "user_id"): number {
    const id = this.int(name, 0, 0);
    if (id <= 0) throw badRequest(`invalid ${name} specified`);
    return id;
  }

  /**
   * The arguments as the bot meant them, for the recorder: JSON bodies as sent; in form bodies,
   * JSON-encoded objects are decoded and numeric ids (`chat_id`, `*_id`) become numbers.
   */
  toRecord(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(this.original)) {
      if (value === undefined) continue;
      out[key] = typeof value === "string" ? decodeForRecord(key, value) : value;
    }
    return out;
  }
}

function decodeForRecord(key: string, value: string): unknown {
  if (key.endsWith("_id") && /^-?\d{1,15}$/.test(value)) return Number(value);
  const first = value.trimStart()[0];
  if (first !== "{" && first !== "[") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The bytes of a string in UTF-8: Telegram measures callback data and payloads in bytes. */
export function utf8Length(value: string): number {
  return Buffer.byteLength(value, "utf8");
}
