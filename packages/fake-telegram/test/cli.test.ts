// The standalone server: `npm run telegram:fake -- --port N` prints its apiRoot, answers the Bot
// API and the control API, and stops cleanly on Ctrl-C (SIGINT).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const CLI = path.resolve(import.meta.dirname, "../src/cli.ts");
const TOKEN = "4242:cli-test-token";
let child: ChildProcess | undefined;

afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
});

function start(): Promise<{ apiRoot: string; output: () => string }> {
  child = spawn(process.execPath, ["--import", "tsx", CLI, "--port", "0", "--token", TOKEN], {
    cwd: path.resolve(import.meta.dirname, ".."),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no apiRoot printed:\n${output}`)), 20_000);
    child!.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const apiRoot = /apiRoot:\s+(http:\/\/\S+)/.exec(output)?.[1];
      if (apiRoot) {
        clearTimeout(timer);
        resolve({ apiRoot, output: () => output });
      }
    });
    child!.on("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

describe("npm run telegram:fake", () => {
  it("serves the Bot API and the control API until SIGINT", async () => {
    const { apiRoot, output } = await start();
    const me = (await (await fetch(`${apiRoot}/bot${TOKEN}/getMe`)).json()) as {
      ok: boolean;
      result: { id: number };
    };
    expect(me).toMatchObject({ ok: true, result: { id: 4242 } });
    const post = (url: string, body: unknown): Promise<Response> =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const user = (await (await post(`${apiRoot}/_kit/users`, { firstName: "Ann" })).json()) as {
      id: number;
    };
    const sent = (await (
      await post(`${apiRoot}/_kit/users/${user.id}/send`, { text: "/start" })
    ).json()) as {
      updateId: number;
    };
    const updates = (await (await fetch(`${apiRoot}/bot${TOKEN}/getUpdates`)).json()) as {
      result: { update_id: number }[];
    };
    expect(updates.result.map((u) => u.update_id)).toEqual([sent.updateId]);
    const missing = await post(`${apiRoot}/_kit/users/${user.id}/press`, { label: "Nope" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { name: string }).name).toBe("ButtonNotFoundError");

    const exited = new Promise<number | null>((resolve) =>
      child!.on("exit", (code) => resolve(code)),
    );
    child!.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(output()).toContain("SIGINT: stopping");
  });
});
