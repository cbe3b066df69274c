// npm run try's --port and --host, and what it says to open.
import { describe, expect, it } from "vitest";
import { parseTryOptions, whereToOpen } from "../src/try-options.ts";

describe("npm run try's options", () => {
  it("listens on this machine only by default, elsewhere with --host", () => {
    expect(parseTryOptions([])).toEqual({ ok: true, options: { port: 8081, host: "127.0.0.1" } });
    expect(parseTryOptions(["--host", "0.0.0.0", "--port", "9000"])).toEqual({
      ok: true,
      options: { port: 9000, host: "0.0.0.0" },
    });
  });

  it("refuses a host that is not an address and a port out of range, saying which", () => {
    expect(parseTryOptions(["--host", "my shop"])).toEqual({
      ok: false,
      problem: "--host must be an IP address (0.0.0.0: every one), not my shop",
    });
    expect(parseTryOptions(["--port", "70000"])).toMatchObject({ ok: false });
    expect(parseTryOptions(["--hots", "0.0.0.0"])).toMatchObject({ ok: false });
  });

  it("says how to open it from another machine, and who could then use it", () => {
    const url = "http://127.0.0.1:8081";
    expect(whereToOpen({ port: 8081, host: "127.0.0.1" }, url)).toEqual([
      "open http://127.0.0.1:8081/ in a browser on this machine",
    ]);
    const remote = whereToOpen({ port: 8081, host: "0.0.0.0" }, url);
    expect(remote[0]).toBe("open http://<this machine's address>:8081/ in a browser");
    expect(remote[1]).toContain("trusted network");
    expect(whereToOpen({ port: 8081, host: "10.0.0.5" }, "http://10.0.0.5:8081")[0]).toBe(
      "open http://10.0.0.5:8081/ in a browser",
    );
  });
});
