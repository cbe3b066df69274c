// The shop's times are UTC whatever the database server's time zone. Prisma reads and writes the
// timestamp columns as UTC; the shop's raw SQL and the columns' `DEFAULT CURRENT_TIMESTAMP` must
// agree with it, or a server in UTC+8 would store every reservation as expiring 8 hours early and
// refuse every payment.
import { utcTimestamp } from "@orderbot/db";
import { beforeAll, describe, expect, it } from "vitest";
import { addProduct, payable, placed, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const RESERVATION_MS = 15 * 60_000; // the configured default

let sku: string;
const h = useShopHarness({ databaseTimeZone: "Asia/Shanghai" });
beforeAll(async () => {
  // UTC+8, no daylight saving
  sku = (await addProduct(h.db, { stock: 10, priceMinor: 30 })).sku;
});

describe("a database whose default time zone is not UTC", () => {
  it("is set up so, and the shop's connections still run in UTC", async () => {
    const [database] = await h.db.$queryRaw<{ settings: string[] }[]>`
      SELECT s.setconfig AS settings FROM pg_db_role_setting s
      JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = current_database()`;
    expect(database?.settings).toContain("TimeZone=Asia/Shanghai");
    const [session] = await h.db.$queryRaw<
      { zone: string }[]
    >`SELECT current_setting('TimeZone') AS zone`;
    expect(session?.zone).toBe("UTC");
  });

  it("stores a reservation's expiry as placed, dates the row now, and takes the payment", async () => {
    const order = await placed(h.shop, user(1), [{ sku, quantity: 1 }]);
    const stored = await h.db.order.findUniqueOrThrow({ where: { publicId: order.id } });
    expect(stored.expiresAt.getTime()).toBe(h.clock.now().getTime() + RESERVATION_MS);
    // created_at comes from the column default: the server's clock, read as UTC.
    expect(Math.abs(stored.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await h.shop.payments.checkPayable(payable(order))).toMatchObject({ status: "ok" });
  });

  it("expires a reservation when it runs out, not hours early", async () => {
    const order = await placed(h.shop, user(2), [{ sku, quantity: 1 }]);
    expect(await h.shop.orders.expireDue(new Date(order.expiresAt.getTime() - 1))).toMatchObject({
      expired: 0,
    });
    expect(await h.shop.orders.expireDue(order.expiresAt)).toMatchObject({ expired: 1 });
    expect((await h.shop.orders.get(order.id))?.status).toBe("EXPIRED");
  });

  it("turns a Date into its UTC time in raw SQL even in a session that is not in UTC", async () => {
    const at = new Date("2026-12-01T12:00:00.123Z");
    const [row] = await h.db.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL TimeZone = 'Asia/Shanghai'`;
      return tx.$queryRaw<{ utc: Date; naive: Date }[]>`
        SELECT ${utcTimestamp(at)} AS utc, ${at}::timestamptz AT TIME ZONE 'UTC' AS naive`;
    });
    expect(row?.utc).toEqual(at);
    // What a plain cast of the Date parameter gives there: the adapter sends it without a zone.
    expect(row?.naive.getTime()).toBe(at.getTime() - 8 * 3_600_000);
  });
});
