// The control API over real HTTP, as the web client and scripts call it.
import type { FakeTelegram } from "../../src/index.ts";

export interface ControlResponse {
  status: number;
  body: Record<string, unknown> & { error?: string };
}

export async function control(
  tg: FakeTelegram,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<ControlResponse> {
  const response = await fetch(`${tg.apiRoot}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as ControlResponse["body"] };
}
