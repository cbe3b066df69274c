import { z } from "zod";

/** One setting as JSON Schema describes it (the input side: what the environment may hold). */
export interface SettingSchema {
  description?: string;
  /** Set with `.meta({ defaultText })` where the real default differs per machine. */
  defaultText?: string;
  default?: unknown;
  type?: string;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

export interface ConfigSchemaDoc {
  properties: Record<string, SettingSchema>;
  required: readonly string[];
}

type Shape = Readonly<Record<string, z.ZodType>>;

/**
 * A config schema (or a shape of one) as JSON Schema, for the generated docs/configuration.md:
 * the object inside any refinements and transforms, as the environment must write it.
 */
export function configSchemaDoc(schema: z.ZodType | Shape): ConfigSchemaDoc {
  let inner: z.ZodType = schema instanceof z.ZodType ? schema : z.object(schema);
  while (inner instanceof z.ZodPipe) inner = inner.in as z.ZodType;
  const json = z.toJSONSchema(inner, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, SettingSchema>;
    required?: string[];
  };
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}
