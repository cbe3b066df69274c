// The web client's page and the control routes it adds: the chat list, making a group admin, and
// live changes by server-sent events, over real HTTP.
import { describe, expect, it } from "vitest";
import { type FakeTelegram, type SimulatedUser, startFakeTelegram } from "../src/index.ts";
import { useFakeTelegram } from "./support/ann.ts";
import { control } from "./support/control.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;
let olga: SimulatedUser;

useFakeTelegram({ controlApi: true }, (opened) => {
  tg = opened;
  ann = tg.createUser({ firstName: "Ann", languageCode: "zh" });
  olga = tg.createUser({ firstName: "Olga", lastName: "Owner" });
});

describe("the page", () => {
  it("is served at the root URL with its script and style, and nothing else of the disk", async () => {
    const page = await fetch(`${tg.apiRoot}/`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('src="/web-client/app.js"');
    const script = await fetch(`${tg.apiRoot}/web-client/app.js`);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    expect(await script.text()).toContain("onChange");
    for (const path of [
      "/web-client/nothing.js",
      "/web-client/..%2Fpackage.json",
      "/web-client/%2Fetc%2Fpasswd",
    ])
      expect((await fetch(`${tg.apiRoot}${path}`)).status, path).toBe(404);
  });

  it("binds 127.0.0.1 by default, and exists only with the control API", async () => {
    expect(new URL(tg.apiRoot).hostname).toBe("127.0.0.1");
    const plain = await startFakeTelegram();
    try {
      expect(new URL(plain.apiRoot).hostname).toBe("127.0.0.1");
      expect((await fetch(`${plain.apiRoot}/`)).status).toBe(404);
      expect((await fetch(`${plain.apiRoot}/_kit/chats`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe("the chat list", () => {
  it("shows every user with their language, and groups with their members but not the bot", async () => {
    const group = tg.createGroup({ title: "Ops", creator: olga, members: [ann] });
    const { body } = await control(tg, "GET", "/_kit/chats");
    expect(body.users).toEqual([
      { id: ann.id, name: "Ann", languageCode: "zh" },
      { id: olga.id, name: "Olga Owner" },
    ]);
    expect(body.groups).toEqual([
      {
        id: group.id,
        title: "Ops",
        members: [
          { userId: ann.id, name: "Ann", status: "member" },
          { userId: olga.id, name: "Olga Owner", status: "creator" },
        ],
      },
    ]);
  });
});

describe("making an admin", () => {
  it("promotes a member, and has an outsider join first", async () => {
    const bob = tg.createUser({ firstName: "Bob" });
    const group = tg.createGroup({ title: "Ops", creator: olga, members: [ann] });
    const promoted = await control(tg, "POST", `/_kit/groups/${group.id}/admins`, {
      userId: ann.id,
    });
    expect(promoted.body).toEqual({ userId: ann.id, status: "administrator" });
    await control(tg, "POST", `/_kit/groups/${group.id}/admins`, { userId: bob.id });
    expect(group.status(bob)).toBe("administrator");
    expect(tg.chat(group).messages.at(-1)?.new_chat_members?.[0]?.id).toBe(bob.id);
    const owner = await control(tg, "POST", `/_kit/groups/${group.id}/admins`, { userId: olga.id });
    expect(owner.body.status).toBe("creator");
  });

  it("refuses an unknown user or group with a clear error and changes nothing", async () => {
    const group = tg.createGroup({ title: "Ops", creator: olga });
    const before = group.members();
    const noUser = await control(tg, "POST", `/_kit/groups/${group.id}/admins`, { userId: 5 });
    expect(noUser).toEqual({
      status: 400,
      body: expect.objectContaining({ error: "no simulated user 5" }),
    });
    const noGroup = await control(tg, "POST", `/_kit/groups/${ann.id}/admins`, { userId: ann.id });
    expect(noGroup.body.error).toBe(`no group ${ann.id}`);
    expect(group.members()).toEqual(before);
  });
});

describe("live changes", () => {
  it("streams a change event after a user writes", async () => {
    const controller = new AbortController();
    const response = await fetch(`${tg.apiRoot}/_kit/events`, { signal: controller.signal });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const read = async (): Promise<string> => decoder.decode((await reader.read()).value);
    const first = await read();
    expect(first).toMatch(/^event: change\ndata: \d+\n\n$/);
    const seqBefore = Number(/data: (\d+)/.exec(first)![1]);
    await ann.send("/start");
    const next = await read();
    expect(Number(/data: (\d+)/.exec(next)![1])).toBeGreaterThan(seqBefore);
    controller.abort();
  });
});
