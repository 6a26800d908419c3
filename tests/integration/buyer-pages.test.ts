import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";

// What the buyer's pages show: tests/in-process/buyer-pages.test.ts. Here, what only the server shows: the
// fee's stream of server-sent events, left uncompressed.
const app = useAppServer();

describe("buyer pages over HTTP (what a browser without JavaScript gets)", () => {
  it("streams the fee as server-sent events, uncompressed", async () => {
    const controller = new AbortController();
    const response = await fetch(new URL("/events/fee", app.url), {
      signal: controller.signal,
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("content-encoding")).toBeNull();
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes("event: fee")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain("retry:");
    expect(text).toMatch(/data: \{"cents":\d+\}/);
    controller.abort();
  });
});
