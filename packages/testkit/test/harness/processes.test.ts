import { describe, expect, it } from "vitest";
import { freePort, spawnApp } from "@orderbot/testkit";

const entry = "packages/testkit/test/harness/fixtures/tiny-app.ts";

async function answers(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(300) }).then(
    (r) => r.ok,
    () => false,
  );
}

describe("spawnApp", () => {
  it("starts an app as one process, waits until it is ready, and stops it gracefully", async () => {
    const port = await freePort();
    const app = await spawnApp({ name: "tiny", entry, env: { PORT: String(port) } });
    await app.waitReady(`http://127.0.0.1:${port}/`);
    expect(app.output).toContain(`listening on ${port}`);
    expect(await app.stop()).toBe(0);
    expect(app.output).toContain("stopping gracefully");
  });

  it("pauses and resumes it, and kill -9 ends it without a graceful exit", async () => {
    const port = await freePort();
    const app = await spawnApp({ name: "tiny", entry, env: { PORT: String(port) } });
    await app.waitReady(`http://127.0.0.1:${port}/`);
    app.pause();
    expect(await answers(`http://127.0.0.1:${port}/`)).toBe(false);
    app.resume();
    expect(await answers(`http://127.0.0.1:${port}/`)).toBe(true);
    expect(await app.kill()).toBe("SIGKILL");
    expect(app.output).not.toContain("stopping gracefully");
  });

  it("reports an app that dies before it is ready, with its output", async () => {
    const app = await spawnApp({ name: "tiny", entry, env: { PORT: "not-a-port" } });
    await expect(app.waitReady("http://127.0.0.1:1/", 10_000)).rejects.toThrow(
      /tiny exited before it was ready/,
    );
  });
});
