import http from "node:http";
import { waitFor } from "../support/wait";
import { describe, expect, it } from "vitest";
import { useAppServer } from "../support/vitest-server";

// One host must not hold every file descriptor: live-fee streams per address and in total.
const PER_ADDRESS = 20;
const TOTAL = 30;
const app = useAppServer({
  env: { TRUST_PROXY: "true", FEE_STREAM_MAX_PER_ADDRESS: String(PER_ADDRESS), FEE_STREAM_MAX_TOTAL: String(TOTAL) },
});

interface Stream {
  status: number;
  retryAfter?: string;
  close: () => void;
}

/** Opens /events/fee as one client address; resolves at the answer's head (a stream stays open). */
function openStream(address: string): Promise<Stream> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: hostname, port, path: "/events/fee", headers: { "X-Forwarded-For": address }, agent: false },
      (response) => {
        response.resume();
        resolve({
          status: response.statusCode!,
          retryAfter: response.headers["retry-after"] as string | undefined,
          close: () => request.destroy(),
        });
      },
    );
    request.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
    });
  });
}

async function feeStreams() {
  const health = (await (await fetch(new URL("/healthz", app.url))).json()) as {
    feeStreams: { open: number; addresses: number; refused: number };
  };
  return health.feeStreams;
}

async function until(check: () => Promise<boolean>) {
  await waitFor(check, 5_000, "the closed streams' places freed");
}

describe("live-fee connection limits", () => {
  it(`one address opening 200 streams gets ${PER_ADDRESS}, the rest 503 at once; others still get theirs up to the total`, async () => {
    const flood = await Promise.all(Array.from({ length: 200 }, () => openStream("10.9.0.1")));
    const open = flood.filter((stream) => stream.status === 200);
    const refused = flood.filter((stream) => stream.status === 503);
    console.log(`live-fee flood: 200 streams from one address, ${open.length} open, ${refused.length} refused (503)`);
    expect(open).toHaveLength(PER_ADDRESS);
    expect(refused).toHaveLength(200 - PER_ADDRESS);
    expect(refused[0]!.retryAfter).toBe("60");
    expect(await feeStreams()).toMatchObject({ open: PER_ADDRESS, addresses: 1, refused: 200 - PER_ADDRESS });

    // Another visitor is not refused by the first one's flood, until the process-wide total.
    const others = await Promise.all(Array.from({ length: TOTAL - PER_ADDRESS }, (_, i) => openStream(`10.9.1.${i}`)));
    expect(others.every((stream) => stream.status === 200)).toBe(true);
    const overTotal = await openStream("10.9.2.1");
    expect(overTotal.status).toBe(503);
    expect(await feeStreams()).toMatchObject({ open: TOTAL, addresses: 1 + TOTAL - PER_ADDRESS });

    // Closed streams free their places at once.
    for (const stream of [...open, ...others]) stream.close();
    await until(async () => (await feeStreams()).open === 0);
    expect(await feeStreams()).toMatchObject({ open: 0, addresses: 0 });
    const again = await openStream("10.9.0.1");
    expect(again.status).toBe(200);
    again.close();
  });
});
