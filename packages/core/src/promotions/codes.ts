// Operators' promo codes (/promo in the operator group): create, list, turn off. The database
// keeps the rules: one row per code (unique, upper-case), CHECKs on the value, the window and
// 0 <= remaining <= total.
import { Prisma, type PromoKind } from "@orderbot/db";
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { INVOICE_LIMITS } from "../payments/invoice-limits.ts";
import { invalid, type Invalid } from "../results.ts";
import { issueParams } from "../problems.ts";
import { currencySchema, parseWith, telegramId } from "../validation.ts";
import { PROMO_CODE_PATTERN } from "./terms.ts";
import { refusalOf, type Actor, type Forbidden } from "../rights/may-do.ts";

/** A code as operators see it. */
export interface PromoCodeView {
  code: string;
  kind: PromoKind;
  value: number;
  currency: string | null;
  minTotalMinor: number;
  startsAt: Date | null;
  endsAt: Date | null;
  totalUses: number;
  remainingUses: number;
  perCustomer: number;
  active: boolean;
}

const createSchema = z
  .object({
    code: z.string().trim().toUpperCase().regex(PROMO_CODE_PATTERN, "promo-code"),
    kind: z.enum(["PERCENT", "FIXED"]),
    value: z.number().int().min(1).max(2_147_483_647),
    /** FIXED: the currency of the amount and of the minimum. */
    currency: currencySchema.nullable(),
    minTotalMinor: z.number().int().min(0).max(2_147_483_647).default(0),
    startsAt: z.date().nullable().default(null),
    endsAt: z.date().nullable().default(null),
    totalUses: z.number().int().min(1).max(1_000_000),
    perCustomer: z.number().int().min(1).max(100).default(1),
    actor: telegramId,
  })
  .superRefine((input, ctx) => {
    if (input.kind === "PERCENT" && input.value > 100)
      ctx.addIssue({ code: "custom", path: ["value"], ...issueParams("max", 100) });
    if (input.kind === "FIXED" && input.currency === null)
      ctx.addIssue({ code: "custom", path: ["currency"], ...issueParams("required") });
    if (input.currency !== null && !INVOICE_LIMITS[input.currency])
      ctx.addIssue({
        code: "custom",
        path: ["currency"],
        ...issueParams("one-of", Object.keys(INVOICE_LIMITS).join("|")),
      });
    if (input.startsAt && input.endsAt && input.startsAt >= input.endsAt)
      ctx.addIssue({ code: "custom", path: ["endsAt"], ...issueParams("after", "startsAt") });
  });

export type CreatePromoCodeInput = Omit<z.input<typeof createSchema>, "actor"> & {
  /** Needs the rights table's right for `promo-add`. */
  actor: Actor;
};

export type CreatePromoCodeResult =
  { status: "ok"; code: PromoCodeView } | { status: "exists"; code: string } | Invalid | Forbidden;

export type DisablePromoCodeResult =
  | { status: "ok"; code: PromoCodeView }
  | { status: "already"; code: PromoCodeView }
  | { status: "not-found"; code: string };

export interface PromoCodeAdmin {
  create(input: CreatePromoCodeInput): Promise<CreatePromoCodeResult>;
  /** Every code, newest first, with its remaining uses. */
  list(): Promise<PromoCodeView[]>;
  /** Turns a code off: no new use is taken; uses already taken stay with their orders. */
  disable(code: string): Promise<DisablePromoCodeResult>;
}

const VIEW = {
  code: true,
  kind: true,
  value: true,
  currency: true,
  minTotalMinor: true,
  startsAt: true,
  endsAt: true,
  totalUses: true,
  remainingUses: true,
  perCustomer: true,
  active: true,
} as const satisfies Prisma.PromoCodeSelect;

export function createPromoCodeAdmin(deps: CoreDeps): PromoCodeAdmin {
  return {
    async create(raw) {
      const refused = refusalOf("promo-add", raw.actor);
      if (refused) return refused;
      const parsed = parseWith(createSchema, { ...raw, actor: raw.actor.id });
      if (!parsed.ok) return invalid(parsed.problems);
      const input = parsed.value;
      try {
        const code = await deps.db.promoCode.create({
          data: {
            code: input.code,
            kind: input.kind,
            value: input.value,
            currency: input.kind === "FIXED" ? input.currency : null,
            minTotalMinor: input.minTotalMinor,
            startsAt: input.startsAt,
            endsAt: input.endsAt,
            totalUses: input.totalUses,
            remainingUses: input.totalUses,
            perCustomer: input.perCustomer,
            createdBy: `op:${deps.mask(input.actor)}`,
          },
          select: VIEW,
        });
        deps.logger.info(
          { operator: deps.mask(input.actor), code: code.code, uses: code.totalUses },
          "promo code created",
        );
        return { status: "ok", code };
      } catch (error) {
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
          return { status: "exists", code: input.code };
        throw error;
      }
    },
    list: () => deps.db.promoCode.findMany({ select: VIEW, orderBy: { id: "desc" }, take: 50 }),
    async disable(raw) {
      const code = raw.trim().toUpperCase();
      const changed = await deps.db.promoCode.updateMany({
        where: { code, active: true },
        data: { active: false },
      });
      const current = await deps.db.promoCode.findUnique({ where: { code }, select: VIEW });
      if (!current) return { status: "not-found", code };
      return { status: changed.count === 1 ? "ok" : "already", code: current };
    },
  };
}
