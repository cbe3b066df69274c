import type { Api } from "grammy";
import type { Logger } from "@orderbot/platform";
import { loggableError } from "./log-safety.ts";
import { OPERATOR_COMMANDS } from "./features/operator/index.ts";

type Description = Record<"en" | "zh", string>;

const CUSTOMER: Record<string, Description> = {
  start: { en: "Welcome and how it works", zh: "欢迎与使用说明" },
  catalog: { en: "Products, prices and stock", zh: "商品、价格与库存" },
  search: { en: "WORDS: find products by name", zh: "关键词：按名称查找商品" },
  cart: { en: "My cart", zh: "我的购物车" },
  promo: { en: "CODE: apply a promo code to the cart", zh: "优惠码：为购物车使用优惠码" },
  orders: { en: "My orders", zh: "我的订单" },
  language: { en: "English / 中文", zh: "English / 中文" },
  paysupport: { en: "Help with a payment", zh: "付款帮助" },
  terms: { en: "Terms of sale", zh: "销售条款" },
  help: { en: "Help", zh: "帮助" },
};

const OPERATOR: Record<(typeof OPERATOR_COMMANDS)[number] | "bind" | "unbind", Description> = {
  help: { en: "What operators can do here", zh: "运营人员可用的命令" },
  products: { en: "All products with stock", zh: "全部商品及库存" },
  stock: { en: "SKU +N|-N|=N: change stock", zh: "SKU +N|-N|=N：调整库存" },
  price: { en: "SKU AMOUNT: set a price", zh: "SKU 金额：设置价格" },
  orders: { en: "[STATUS]: latest orders", zh: "[状态]：最近的订单" },
  order: { en: "ID: one order", zh: "订单号：查看订单" },
  kind: {
    en: "SKU physical|digital [PRICE]: shipped (provider) or digital (Stars)",
    zh: "SKU physical|digital [价格]：实物（支付服务商）或数字商品（星星）",
  },
  refund: {
    en: "ID [reason]: refund a paid order (a reason once shipped)",
    zh: "订单号 [原因]：为已支付订单退款（已发货须注明原因）",
  },
  process: { en: "ID: start preparing a paid order", zh: "订单号：开始为已支付订单备货" },
  ship: { en: "ID [tracking note]: mark shipped", zh: "订单号 [物流单号]：标记为已发货" },
  deliver: { en: "ID: mark delivered", zh: "订单号：标记为已送达" },
  report: { en: "Today's figures", zh: "今日报表" },
  settings: { en: "Group settings", zh: "群组设置" },
  refunds: { en: "Refunds owed that need a person", zh: "需要人工处理的待退款" },
  refunded: {
    en: "CHARGE_ID [note]: mark refunded by hand",
    zh: "交易号 [备注]：标记为已手动退款",
  },
  photo: {
    en: "SKU URL: a product's photo (or send one)",
    zh: "SKU 网址：商品图片（或直接发送图片）",
  },
  categories: { en: "The catalog's categories", zh: "商品分类" },
  category: {
    en: "add|rename|remove SLUG, set SKU SLUG: categories",
    zh: "add|rename|remove 分类, set SKU 分类：管理分类",
  },
  promo: {
    en: "add CODE 10%|5.00 uses=N, off CODE: promo codes",
    zh: "add 优惠码 10%|5.00 uses=N，off 优惠码：管理优惠码",
  },
  codes: {
    en: "SKU [codes, or a .txt/.csv]: a digital product's pool",
    zh: "SKU [兑换码，或 .txt/.csv 文件]：数字商品的兑换码库",
  },
  import: {
    en: "as a .csv's caption: import the catalog, after a dry run",
    zh: "作为 .csv 文件的说明：先试运行，再导入商品目录",
  },
  bind: { en: "Make this the operator group (owners)", zh: "绑定为运营群（店主）" },
  unbind: { en: "Stop being the operator group (owners)", zh: "解除运营群绑定（店主）" },
};

function list(commands: Record<string, Description>, language: "en" | "zh") {
  return Object.entries(commands).map(([command, description]) => ({
    command,
    description: description[language],
  }));
}

/**
 * The command menus: customers' in private chats, operators' in groups, each in English and (for
 * users whose Telegram speaks Chinese) in Chinese. Setting them again is harmless, so every
 * replica does it at start.
 *
 * Cosmetic, so it never stops a start: Telegram answers 429 when many replicas restart at once,
 * and some Bot API servers do not implement setMyCommands at all. A failure is logged, and the
 * menus stay as the last replica that managed set them. Returns whether every call succeeded.
 */
export async function publishCommands(api: Api, logger: Logger): Promise<boolean> {
  try {
    for (const [scope, commands] of [
      [{ type: "all_private_chats" }, CUSTOMER],
      [{ type: "all_group_chats" }, OPERATOR],
    ] as const) {
      await api.setMyCommands(list(commands, "en"), { scope });
      await api.setMyCommands(list(commands, "zh"), { scope, language_code: "zh" });
    }
    return true;
  } catch (error) {
    logger.warn({ err: loggableError(error) }, "setMyCommands failed; starting without the menus");
    return false;
  }
}
