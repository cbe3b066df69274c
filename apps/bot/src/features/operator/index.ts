import { Composer } from "grammy";
import type { Shop } from "@orderbot/core";
import type { ReplyPrompts } from "@orderbot/conversation";
import type { Reports } from "@orderbot/core/reports";
import type { ShippingOption } from "@orderbot/core/shipping";
import type { BotContext } from "../../bot/context.ts";
import { callbacks } from "@orderbot/conversation";
import { bindFeature } from "./bind.ts";
import { catalogImportFeature, IMPORT_COMMANDS, isImportDocument } from "./catalog-import.ts";
import { CATEGORY_COMMANDS, categoriesFeature } from "./categories.ts";
import { CODES_COMMANDS, codesFeature, isCodesDocument } from "./codes.ts";
import { FULFILMENT_COMMANDS, fulfilmentFeature, isShipNoteReply } from "./fulfilment.ts";
import { HELP_COMMANDS, operatorHelpFeature } from "./help.ts";
import { operatorsOnly } from "./guard.ts";
import { operatorOrdersFeature } from "./orders.ts";
import { owedReplyFeature } from "./owed-reply.ts";
import { isRefundNoteReply, REFUND_COMMANDS, refundsFeature } from "./refunds.ts";
import { isPhotoCaptionCommand, PHOTO_COMMANDS, photoFeature } from "./photo.ts";
import { productsFeature } from "./products.ts";
import { PROMO_COMMANDS, promoCodesFeature } from "./promo-codes.ts";
import { reportFeature } from "./report.ts";
import { settingsFeature } from "./settings.ts";
import { stockFeature } from "./stock.ts";
import { operatorShippingFeature, SHIPPING_COMMANDS } from "./shipping.ts";
import { isSupportAnswer, supportAnswerFeature } from "./support-answer.ts";

/** The commands operators use in their group (also published with setMyCommands). */
export const OPERATOR_COMMANDS = [
  "help",
  "products",
  "stock",
  "price",
  "orders",
  "order",
  "refund",
  "report",
  "settings",
  ...REFUND_COMMANDS,
  ...PHOTO_COMMANDS,
  ...FULFILMENT_COMMANDS,
  ...CATEGORY_COMMANDS,
  ...PROMO_COMMANDS,
  ...CODES_COMMANDS,
  ...IMPORT_COMMANDS,
  ...SHIPPING_COMMANDS,
] as const;

export interface OperatorFeatureDeps {
  shop: Pick<
    Shop,
    | "catalog"
    | "importCatalog"
    | "categories"
    | "photos"
    | "orders"
    | "fulfilment"
    | "payments"
    | "ledger"
    | "stock"
    | "groups"
    | "support"
    | "delivery"
    | "promotions"
    | "shipping"
  >;
  /** Physical goods: the shipping options (for /order) and PROVIDER_CURRENCY (for /kind). */
  shippingOptions: readonly ShippingOption[];
  providerCurrency: string | null;
  /** The shop's payment currency: a promo code's fixed amount is in it unless it names one. */
  currency: string;
  reports: Reports;
  replyPrompts: ReplyPrompts;
  ownerIds: readonly bigint[];
  groupId: bigint | undefined;
  mask: (id: bigint | number) => string;
}

/**
 * Everything that happens in groups: an owner's /bind, then the operator commands and the
 * settings buttons, each only for the bound group's admins. Other group chatter is left alone,
 * but for a hint to an operator who owes a note by reply (owed-reply.ts).
 */
export function operatorFeature(deps: OperatorFeatureDeps): Composer<BotContext> {
  const { shop } = deps;
  const feature = new Composer<BotContext>();
  const groups = feature.chatType(["group", "supergroup"]);
  groups.use(bindFeature({ groups: shop.groups, ownerIds: deps.ownerIds, groupId: deps.groupId }));
  // Someone was promoted, demoted, left or joined: the next admin check asks Telegram again.
  groups.on("chat_member", (ctx) => shop.groups.forgetAdmins(ctx.chat.id));

  const actions = groups.filter(isOperatorAction);
  actions.use(operatorsOnly({ groups: shop.groups }));
  for (const action of operatorActions(deps)) actions.use(action);
  groups.use(owedReplyFeature({ prompts: deps.replyPrompts, groups: shop.groups }));
  return feature;
}

/** An update some operator feature acts on: only these go through the admin check. */
function isOperatorAction(ctx: BotContext): boolean {
  return (
    ctx.hasCommand([...OPERATOR_COMMANDS, ...HELP_COMMANDS]) ||
    ctx.hasCallbackQuery(callbacks.setting.pattern) ||
    ctx.hasCallbackQuery(callbacks.productsPage.pattern) ||
    ctx.hasCallbackQuery(callbacks.refundRetry.pattern) ||
    ctx.hasCallbackQuery(callbacks.refundMark.pattern) ||
    ctx.hasCallbackQuery(callbacks.findingResolve.pattern) ||
    ctx.hasCallbackQuery(callbacks.customerId.pattern) ||
    ctx.hasCallbackQuery(callbacks.showPhone.pattern) ||
    ctx.hasCallbackQuery(callbacks.fulfil.pattern) ||
    ctx.hasCallbackQuery(callbacks.catalogImport.pattern) ||
    isImportDocument(ctx) ||
    isShipNoteReply(ctx) ||
    isPhotoCaptionCommand(ctx) ||
    isCodesDocument(ctx) ||
    isRefundNoteReply(ctx) ||
    isSupportAnswer(ctx)
  );
}

/** The operator features, in the order an action meets them. */
function operatorActions(deps: OperatorFeatureDeps): Composer<BotContext>[] {
  const { shop } = deps;
  return [
    operatorHelpFeature(),
    productsFeature({ catalog: shop.catalog }),
    categoriesFeature({ catalog: shop.catalog, categories: shop.categories }),
    photoFeature({ catalog: shop.catalog, photos: shop.photos }),
    stockFeature({
      catalog: shop.catalog,
      stock: shop.stock,
      ownerIds: deps.ownerIds,
    }),
    codesFeature({ catalog: shop.catalog, delivery: shop.delivery }),
    catalogImportFeature({ importCatalog: shop.importCatalog, ownerIds: deps.ownerIds }),
    operatorOrdersFeature({
      orders: shop.orders,
      payments: shop.payments,
      ownerIds: deps.ownerIds,
      mask: deps.mask,
      shippingOptions: deps.shippingOptions,
    }),
    operatorShippingFeature({
      catalog: shop.catalog,
      shipping: shop.shipping,
      options: deps.shippingOptions,
      providerCurrency: deps.providerCurrency,
      ownerIds: deps.ownerIds,
    }),
    fulfilmentFeature({
      fulfilment: shop.fulfilment,
      orders: shop.orders,
      prompts: deps.replyPrompts,
    }),
    reportFeature({ reports: deps.reports, groups: shop.groups }),
    settingsFeature(shop.groups),
    refundsFeature({
      payments: shop.payments,
      ledger: shop.ledger,
      ownerIds: deps.ownerIds,
      prompts: deps.replyPrompts,
    }),
    supportAnswerFeature(shop.support),
    promoCodesFeature({
      promotions: shop.promotions,
      currency: deps.currency,
      ownerIds: deps.ownerIds,
    }),
  ];
}
