// Raw Bot API calls over HTTP, in each body encoding a client may use.
import type { FakeTelegram } from "../../src/index.ts";

export type Encoding = "json" | "form" | "multipart" | "query";

export interface RawResponse {
  status: number;
  body: {
    ok: boolean;
    result?: unknown;
    error_code?: number;
    description?: string;
    parameters?: { retry_after?: number };
  };
}

function asStrings(params: Record<string, unknown>): [string, string][] {
  return Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
}

export async function rawCall(
  tg: FakeTelegram,
  method: string,
  params: Record<string, unknown> = {},
  { encoding = "json", token = tg.token }: { encoding?: Encoding; token?: string } = {},
): Promise<RawResponse> {
  const url = `${tg.apiRoot}/bot${token}/${method}`;
  let response: Response;
  if (encoding === "json") {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
    });
  } else if (encoding === "form") {
    response = await fetch(url, { method: "POST", body: new URLSearchParams(asStrings(params)) });
  } else if (encoding === "multipart") {
    const form = new FormData();
    for (const [k, v] of asStrings(params)) form.append(k, v);
    response = await fetch(url, { method: "POST", body: form });
  } else {
    response = await fetch(`${url}?${new URLSearchParams(asStrings(params))}`);
  }
  return { status: response.status, body: (await response.json()) as RawResponse["body"] };
}

/** Asserts nothing; returns "code description" for compact expectations. */
export function failure(response: RawResponse): string {
  return `${response.status} ${response.body.error_code} ${response.body.description}`;
}
