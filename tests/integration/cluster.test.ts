import { afterAll, beforeAll, expect, it } from "vitest";
import { formatClusterResult, runCluster } from "../../scripts/cluster-test";

// The short run of `npm run test:cluster` inside `npm test` (the full one: 50 buyers for 60 s): three
// production processes on PostgreSQL behind nginx, one SIGKILLed and restarted mid-run.
let previousTls: string | undefined;
beforeAll(() => {
  // nginx's certificate is self-signed (made for the run); only this file's requests go through it.
  previousTls = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
});
afterAll(() => {
  if (previousTls === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousTls;
});

it(
  "three processes on PostgreSQL behind nginx: every confirmed inquiry paid once, changes seen everywhere within 1 s, one owner email each",
  { timeout: 240_000 },
  async () => {
    const result = await runCluster({
      seconds: Number(process.env.CLUSTER_SECONDS ?? 20),
      buyers: Number(process.env.CLUSTER_BUYERS ?? 12),
    });
    console.log(formatClusterResult(result));
    expect([...result.load.mismatchSamples, ...result.feeLate]).toEqual([]);
    expect(result.load.rowsLost).toBe(0);
    expect(result.load.inquiriesCompleted).toBeGreaterThan(0);
    expect(result.feeChecks).toBeGreaterThan(0);
    expect(result.priceLagMs.every((lag) => lag <= 1_000)).toBe(true);
    expect(result.ownerEmailsDelivered + result.ownerEmailsLeased).toBe(result.ownerEmails);
    expect(result.ownerEmailsTwice).toBe(0);
    expect(result.ok).toBe(true);
  },
);
