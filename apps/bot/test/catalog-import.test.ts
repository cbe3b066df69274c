// A shop's own catalog (packages/core/src/catalog-import/): the sample file imported by
// `npm run catalog` into an empty shop is the demo catalog, and a customer buys from it; a second
// import changes nothing; a file with a malformed row changes nothing at all.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerActor } from "@orderbot/core/rights";
import { DEMO_CATALOG, DEMO_CATEGORIES, PHYSICAL_DEMO_CATALOG, seedCatalog } from "@orderbot/db";
import { catalogCommand } from "@orderbot/runtime/catalog-command";
import { PROJECT_ROOT, runCustomer } from "@orderbot/testkit";
import { startBotHarness, type BotHarness } from "./support/harness.ts";

const SAMPLE = path.join(PROJECT_ROOT, "examples/catalog.csv");
const HEADER = "sku,title_en,title_zh,category,price,currency,kind,stock,photo";

let h: BotHarness;
let sample: string;
beforeAll(async () => {
  h = await startBotHarness({ catalog: false });
  await seedCatalog(h.db, [], DEMO_CATEGORIES);
  sample = await readFile(SAMPLE, "utf8");
});
afterAll(() => h?.close());

const importCsv = (csv: string, dryRun = false) =>
  h.shop.importCatalog({ csv, dryRun, actor: ownerActor(7_100_000_001n) });

async function products() {
  const rows = await h.db.product.findMany({
    include: { category: true },
    orderBy: { sku: "asc" },
  });
  return rows.map((p) => ({
    sku: p.sku,
    titleEn: p.titleEn,
    titleZh: p.titleZh,
    priceMinor: p.priceMinor,
    currency: p.currency,
    kind: p.kind,
    stock: p.stock,
    category: p.category?.slug,
    photo: p.photo ?? undefined,
    version: p.version,
  }));
}

describe("importing a catalog", () => {
  it("refuses an admin without the right to set prices, and changes nothing", async () => {
    const admin = { id: 7_100_000_002n, member: { role: "admin" as const, rights: [] } };
    const result = await h.shop.importCatalog({ csv: sample, dryRun: false, actor: admin });
    expect(result).toEqual({
      status: "forbidden",
      action: "catalog-import",
      right: "can_promote_members",
    });
    expect(await products()).toEqual([]);
  });

  it("loads the sample file with npm run catalog: the demo catalog, which a customer then buys from", async () => {
    const run = await catalogCommand(
      ["import", "examples/catalog.csv"],
      {
        DATABASE_URL: h.services.databaseUrl,
        REDIS_URL: h.services.redisUrl,
        LOCK_HASH_KEY: "catalog-test-hash-key-0123",
      },
      PROJECT_ROOT,
    );
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    const demo = [...DEMO_CATALOG, ...PHYSICAL_DEMO_CATALOG];
    expect(run.out[1]).toMatch(new RegExp(`^create ${demo.length}: TEA-LONGJING, `));
    const expected = demo
      .map(({ currency, kind, ...p }) => ({
        ...p,
        currency: currency ?? "XTR",
        kind: kind ?? "DIGITAL",
        version: 0,
      }))
      .sort((a, b) => a.sku.localeCompare(b.sku));
    expect(await products()).toEqual(expected);

    const result = await runCustomer(h.kit.createUser(), {
      kit: h.kit,
      products: ["Longjing green tea, 100 g"],
      intents: { pay: 1, cancel: 0, abandon: 0 },
      maxQuantity: 1,
      thinkMs: [0, 0],
      random: () => 0,
    });
    expect(result.error).toBeUndefined();
    expect(result.payment?.status).toBe("paid");
    const sold = await h.db.product.findUniqueOrThrow({ where: { sku: "TEA-LONGJING" } });
    expect(sold.stock).toBe(39);
  });

  it("changes nothing when the same file comes again, not even the stock sold since", async () => {
    const before = await products();
    const again = await importCsv(sample);
    expect(again).toEqual({
      status: "applied",
      created: [],
      changed: [],
      unchanged: before.length,
      conflicts: [],
    });
    expect(await products()).toEqual(before);
  });

  it("refuses a file with a malformed row, naming each line and reason, and applies none of it", async () => {
    const before = await products();
    const csv = [
      HEADER,
      "NEW-KETTLE,Electric kettle,电热水壶,teaware,40,XTR,digital,5,",
      "TEA-PUER,Pu'er cake,普洱茶饼,dark-tea,61,XTR,digital,20,",
      "NEW-CUP,Cup,杯子,teaware,twelve,XTR,digital,5,",
      "NEW-BOWL,Bowl,碗,nowhere,12,XTR,digital,5,",
    ].join("\n");
    const dry = await importCsv(csv, true);
    const refused = await importCsv(csv);
    expect(refused).toEqual({
      status: "refused",
      refused: [
        { line: 4, sku: "NEW-CUP", problem: { field: "price", rule: "format", bound: "amount" } },
        {
          line: 5,
          sku: "NEW-BOWL",
          problem: { field: "category", rule: "unknown", bound: "nowhere" },
        },
      ],
    });
    expect(dry).toEqual(refused);
    expect(await products()).toEqual(before);
  });

  it("says in a dry run what it would create and change, writes nothing, then applies it", async () => {
    const before = await products();
    const csv = [
      HEADER,
      "NEW-KETTLE,Electric kettle,电热水壶,teaware,40,XTR,digital,5,",
      "NEW-TRAY,Tray,茶盘,,9,XTR,digital,0,",
      "TEA-PUER,Pu'er cake,普洱茶饼 357 克,dark-tea,61,XTR,digital,20,",
    ].join("\n");
    const plan = {
      created: ["NEW-KETTLE", "NEW-TRAY"],
      changed: [{ sku: "TEA-PUER", fields: ["title_en", "price"] }],
    };
    expect(await importCsv(csv, true)).toEqual({
      status: "planned",
      unchanged: 0,
      conflicts: [],
      ...plan,
    });
    expect(await products()).toEqual(before);
    expect(await importCsv(csv)).toEqual({
      status: "applied",
      unchanged: 0,
      conflicts: [],
      ...plan,
    });
    const puer = await h.db.product.findUniqueOrThrow({ where: { sku: "TEA-PUER" } });
    expect(puer).toMatchObject({ titleEn: "Pu'er cake", priceMinor: 61, stock: 20 });
    expect(await h.db.priceChange.count({ where: { productId: puer.id } })).toBe(1);
  });

  it("uploads a photo given as a path or an HTTPS URL once, and keeps its file_id", async () => {
    const owner = h.kit.createUser({ firstName: "Owner", languageCode: "en" });
    const group = h.kit.createGroup({ title: "Ops", creator: owner });
    await h.shop.groups.bind({ chatId: group.id, title: "Ops", boundBy: owner.id });
    const dir = await mkdtemp(path.join(os.tmpdir(), "orderbot-photos-"));
    await mkdir(path.join(dir, "photos"));
    await writeFile(path.join(dir, "photos/cup.jpg"), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]));
    await writeFile(
      path.join(dir, "photos.csv"),
      [
        HEADER,
        "PHOTO-PATH,Cup,杯,,12,XTR,digital,2,photos/cup.jpg",
        "PHOTO-URL,Bowl,碗,,14,XTR,digital,2,https://shop.example.com/bowl.jpg",
      ].join("\n"),
    );
    const env = {
      DATABASE_URL: h.services.databaseUrl,
      REDIS_URL: h.services.redisUrl,
      LOCK_HASH_KEY: "catalog-test-hash-key-0123",
      BOT_TOKEN: h.kit.token,
      TELEGRAM_API_ROOT: h.kit.apiRoot,
    };
    const uploads = () => h.kit.callsTo("sendPhoto").filter((call) => call.ok).length;
    try {
      const dry = await catalogCommand(["import", "photos.csv", "--dry-run"], env, dir);
      expect([dry.code, dry.out[1], uploads()]).toEqual([
        0,
        "would create 2: PHOTO-PATH, PHOTO-URL",
        0,
      ]);
      const real = await catalogCommand(["import", "photos.csv"], env, dir);
      expect(real.out[1]).toBe("create 2: PHOTO-PATH, PHOTO-URL");
      expect(uploads()).toBe(2);
      const stored = await h.db.product.findMany({
        where: { sku: { in: ["PHOTO-PATH", "PHOTO-URL"] } },
        orderBy: { sku: "asc" },
      });
      expect(
        stored.map((p) => [p.photo?.match(/^[A-Za-z0-9_-]{20,}$/) !== null, p.photoSource]),
      ).toEqual([
        [true, "photos/cup.jpg"],
        [true, "https://shop.example.com/bowl.jpg"],
      ]);
      const again = await catalogCommand(["import", "photos.csv"], env, dir);
      expect(again.out.slice(1, 4)).toEqual(["create 0", "change 0", "unchanged 2"]);
      expect(uploads()).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
