import type { Clock } from "../deps.ts";
import type { Shop } from "../shop.ts";

export interface LowStockAlerts {
  /**
   * After stock went down (an order, an operator's change): queues an alert for every bound
   * operator group whose threshold these products are now at or below. Returns how many were
   * queued now; a repeat queues nothing (see the dedupe key below).
   */
  afterSale(skus: readonly string[]): Promise<number>;
}

/**
 * Low-stock notices, through the outbox so they survive a crash between the sale and the send.
 * The dedupe key names the product, the level ("low", or "out" at zero) and the UTC day: each
 * group hears about a product at most twice a day, however many sales follow.
 */
export function createLowStockAlerts(deps: {
  shop: Pick<Shop, "catalog" | "groups" | "outbox">;
  clock: Clock;
}): LowStockAlerts {
  return {
    async afterSale(skus) {
      const groups = (await deps.shop.groups.list()).filter(
        (g) => g.settings.lowStockThreshold > 0,
      );
      if (groups.length === 0 || skus.length === 0) return 0;
      const day = deps.clock.now().toISOString().slice(0, 10);
      const products = (
        await Promise.all(skus.map((sku) => deps.shop.catalog.get({ sku })))
      ).filter((p) => p !== null);
      const messages = groups.flatMap((group) =>
        products
          .filter((p) => p.active && p.stock <= group.settings.lowStockThreshold)
          .map((p) => ({
            dedupeKey: `low-stock:${p.sku}:${p.stock === 0 ? "out" : "low"}:${day}:${group.chatId}`,
            chatId: group.chatId,
            method: "notify" as const,
            payload: {
              template: "operator-low-stock" as const,
              params: {
                sku: p.sku,
                titleEn: p.title.en,
                titleZh: p.title.zh,
                stock: p.stock,
                threshold: group.settings.lowStockThreshold,
              },
            },
          })),
      );
      return deps.shop.outbox.enqueue(messages);
    },
  };
}
