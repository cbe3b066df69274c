import { z } from "zod";

/** A group's low-stock threshold until an operator changes it (/settings). */
export const DEFAULT_LOW_STOCK_THRESHOLD = 3;

/** An operator group's settings (stored as JSON, versioned by the row). */
export const groupSettingsSchema = z
  .object({
    /** Language of operator alerts and replies in the group. */
    language: z.enum(["en", "zh"]).default("en"),
    /** Alert when a product's stock falls to this or below (0: never). */
    lowStockThreshold: z.number().int().min(0).max(100_000).default(DEFAULT_LOW_STOCK_THRESHOLD),
    /** Post every paid order in the group. */
    notifyPaidOrders: z.boolean().default(true),
  })
  .strict();

export type GroupSettings = z.output<typeof groupSettingsSchema>;

/** A partial update: unknown keys and wrong types are refused, nothing else is touched. */
export const groupSettingsPatchSchema = z
  .object({
    language: z.enum(["en", "zh"]),
    lowStockThreshold: z.number().int().min(0).max(100_000),
    notifyPaidOrders: z.boolean(),
  })
  .partial()
  .strict();

export type GroupSettingsPatch = z.output<typeof groupSettingsPatchSchema>;

/** Stored settings, read leniently: fields written by an older version fall back to defaults. */
export function readSettings(stored: unknown): GroupSettings {
  const base = typeof stored === "object" && stored !== null ? stored : {};
  const parsed = groupSettingsSchema.strip().safeParse(base);
  if (parsed.success) return parsed.data;
  const valid = Object.fromEntries(
    Object.entries(base).filter(
      ([key, value]) => groupSettingsPatchSchema.safeParse({ [key]: value }).success,
    ),
  );
  return groupSettingsSchema.parse(valid);
}
