// Another site open in the same browser cannot drive the fake: its cross-site form posts and a
// DNS-rebound Host are refused and change nothing, while bots, scripts and the web client's own
// requests are served. Requests go over node:http, which sends the Host and headers as given.
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { allowedHostsFor } from "../src/browser-guard.ts";
import type { FakeTelegram, SimulatedGroup, SimulatedUser } from "../src/index.ts";
import { useFakeTelegram } from "./support/ann.ts";

let tg: FakeTelegram;
let olga: SimulatedUser;
let ann: SimulatedUser;
let group: SimulatedGroup;

useFakeTelegram({ controlApi: true }, (opened) => {
  tg = opened;
  olga = tg.createUser({ firstName: "Olga" });
  ann = tg.createUser({ firstName: "Ann" });
  group = tg.createGroup({ title: "Ops", creator: olga, members: [ann] });
});

type Sent = { status: number; body: string };

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body = "",
): Promise<Sent> {
  const { port } = new URL(tg.apiRoot);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const FROM_ELSEWHERE = { ...FORM, origin: "http://shop.example", "sec-fetch-site": "cross-site" };

/** The users the chat list shows, read as a script reads it. */
async function usersCount(): Promise<number> {
  return (JSON.parse((await send("GET", "/_kit/chats", {})).body) as { users: unknown[] }).users
    .length;
}

describe("a page of another site", () => {
  it("cannot create a user, promote one, send as one or set the webhook by a form post", async () => {
    const users = await usersCount();
    const messages = tg.chat(ann).messages.length;
    const posts: [string, string][] = [
      ["/_kit/users", "firstName=Mallory"],
      [`/_kit/groups/${group.chatId}/admins`, `userId=${ann.id}`],
      [`/_kit/users/${ann.id}/send`, "text=%2Fstart"],
      [`/bot${tg.token}/setWebhook`, "url=https%3A%2F%2Fshop.example%2Fhook"],
    ];
    for (const [path, body] of posts)
      expect((await send("POST", path, FROM_ELSEWHERE, body)).status, path).toBe(403);
    expect(await usersCount()).toBe(users);
    expect(group.status(ann)).toBe("member");
    expect(tg.chat(ann).messages.length).toBe(messages);
    expect(tg.webhookInfo().url).toBe("");
  });

  it("is refused by its Origin where the browser sends no fetch metadata, and by a GET", async () => {
    const old = await send(
      "POST",
      "/_kit/users",
      { ...FORM, origin: "http://shop.example" },
      "a=1",
    );
    expect(old.status).toBe(403);
    const image = await send("GET", `/bot${tg.token}/setWebhook?url=https://shop.example/hook`, {
      "sec-fetch-site": "cross-site",
    });
    expect(image.status).toBe(403);
    expect(tg.webhookInfo().url).toBe("");
  });

  it("cannot read the fake through a host name that rebinds to it", async () => {
    const { port } = new URL(tg.apiRoot);
    for (const path of ["/_kit", `/_kit/chats/${ann.id}`, "/"]) {
      const read = await send("GET", path, { host: `rebind.example:${port}` });
      expect(read.status, path).toBe(403);
      expect(read.body).not.toContain(tg.token);
    }
  });

  it("may link to the web client's page", async () => {
    const page = await send("GET", "/", { "sec-fetch-site": "cross-site" });
    expect(page.status).toBe(200);
  });
});

describe("the control API", () => {
  it("takes JSON only, also from the page itself", async () => {
    const users = await usersCount();
    const form = await send("POST", "/_kit/users", { ...FORM, "sec-fetch-site": "same-origin" });
    expect(form.status).toBe(415);
    const plain = await send("POST", "/_kit/users", { "content-type": "text/plain" }, "{}");
    expect(plain.status).toBe(415);
    expect(await usersCount()).toBe(users);
  });

  it("serves the page's own JSON requests, and scripts that send no browser headers", async () => {
    const json = { "content-type": "application/json" };
    const own = await send(
      "POST",
      "/_kit/users",
      { ...json, "sec-fetch-site": "same-origin" },
      "{}",
    );
    expect(own.status).toBe(200);
    const { port } = new URL(tg.apiRoot);
    const named = await send("GET", "/_kit", { host: `localhost:${port}` });
    expect(named.status).toBe(200);
    const script = await send("POST", `/bot${tg.token}/getMe`, FORM, "");
    expect(JSON.parse(script.body)).toMatchObject({ ok: true });
  });
});

describe("the host names served", () => {
  it("are the name the fake was bound to, or the machine's for every interface", () => {
    expect(allowedHostsFor("shop.internal")).toEqual(["shop.internal"]);
    expect(allowedHostsFor("0.0.0.0")).toHaveLength(1);
  });
});
