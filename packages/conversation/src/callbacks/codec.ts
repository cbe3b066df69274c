import { z } from "zod";

/** Telegram's limit on callback_data (bytes). */
export const CALLBACK_DATA_MAX_BYTES = 64;

const SEPARATOR = ":";

/**
 * A field of callback data: a zod schema that turns the text between separators into a typed
 * value. Fields never contain the separator (every schema below is anchored to a character class
 * without ':'), so splitting is unambiguous.
 */
type Field = z.ZodType<unknown, string>;
type Fields = Record<string, Field>;
type Values<F extends Fields> = { [K in keyof F]: z.output<F[K]> };

/**
 * A typed codec for one kind of button: `prefix:field1:field2...`, decoded with a schema because
 * callback data is untrusted input (anyone can craft it).
 *
 * @example
 * const product = defineCallback("p", { productId: id, qty: quantity });
 * product.encode({ productId: 7, qty: 2 });   // "p:7:2"
 * product.decode("p:7:2");                    // { productId: 7, qty: 2 }
 * product.decode("p:7:-1");                   // null
 */
export interface CallbackCodec<T> {
  readonly prefix: string;
  /** Matches data of this kind (the prefix only); use with `composer.callbackQuery`. */
  readonly pattern: RegExp;
  encode(values: T): string;
  /** The typed values, or null when the data is not valid data of this kind. */
  decode(data: string): T | null;
}

export function defineCallback<F extends Fields>(
  prefix: string,
  fields: F,
): CallbackCodec<Values<F>> {
  const names = Object.keys(fields) as (keyof F & string)[];
  const schema = z.object(fields);
  return {
    prefix,
    pattern: new RegExp(`^${prefix}${SEPARATOR}`),
    encode(values) {
      const data = [prefix, ...names.map((name) => String(values[name]))].join(SEPARATOR);
      // A programming error, not user input: every caller encodes values it produced itself.
      if (Buffer.byteLength(data) > CALLBACK_DATA_MAX_BYTES)
        throw new RangeError(`callback data over ${CALLBACK_DATA_MAX_BYTES} bytes: ${prefix}`);
      const roundTrip = this.decode(data);
      if (roundTrip === null)
        throw new RangeError(`callback data does not match its own schema: ${prefix}`);
      return data;
    },
    decode(data) {
      if (Buffer.byteLength(data) > CALLBACK_DATA_MAX_BYTES) return null;
      const parts = data.split(SEPARATOR);
      if (parts.shift() !== prefix || parts.length !== names.length) return null;
      const result = schema.safeParse(Object.fromEntries(names.map((name, i) => [name, parts[i]])));
      return result.success ? (result.data as Values<F>) : null;
    },
  };
}

/** A positive database id, as text. */
export const idField = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(z.number().int().max(2_147_483_647));

/** A group's chat id (negative), as text. */
export const chatIdField = z
  .string()
  .regex(/^-[1-9]\d{0,15}$/)
  .transform(Number);

/** A catalog page, from 1. */
export const pageField = z
  .string()
  .regex(/^[1-9]\d{0,5}$/)
  .transform(Number);

/** A page from 1 to `max`: a crafted page past it is invalid data, not a failing update. */
export function pageFieldUpTo(max: number) {
  return pageField.pipe(z.number().max(max));
}

/** A non-negative small integer (versions). */
export const countField = z
  .string()
  .regex(/^(0|[1-9]\d{0,8})$/)
  .transform(Number);

/** Units of one product on a card: 1..99 (the order service enforces its own, stricter cap). */
export const quantityField = z
  .string()
  .regex(/^[1-9]\d?$/)
  .transform(Number);

/** An order's public id (the order service's alphabet: no 0/O, 1/I/L). */
export const publicIdField = z.string().regex(/^[2-9A-HJKMNP-Z]{6,16}$/);

/** Search words joined by single spaces (no ':'); the byte limit is the codec's. */
export const searchQueryField = z.string().regex(/^[^:\s]+( [^:\s]+)*$/u);

/** A setting's new value: a short word or number; its meaning is checked per setting. */
export const settingValueField = z.string().regex(/^[a-z0-9]{1,6}$/);

export function enumField<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values);
}
