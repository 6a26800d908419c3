import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEXT } from "../../app/lib/admin-forms";
import { TEST_ADMIN } from "../support/admin";
import { REAL_PASSWORD_HASH_COST, removeDataDir, startAppServer, type AppServer } from "../support/app-server";
import { tricklePost } from "../support/raw-http";
import { waitFor } from "../support/wait";
import { http } from "./admin-helpers";

// The sign-in guard (app/server/http/sign-in-guard.server.ts) against slow bodies, over raw sockets.
// TRUST_PROXY=loopback lets each connection claim a client address with X-Forwarded-For. The real scrypt
// cost (PASSWORD_HASH_COST 17): sign-ins must stay in flight long enough to fill the guard's bounds.
const GUARD_ENV = {
  ADMIN_EMAIL: TEST_ADMIN.email,
  ADMIN_PASSWORD: TEST_ADMIN.password,
  TRUST_PROXY: "loopback",
  SEED_DEMO: "false",
  PASSWORD_HASH_COST: REAL_PASSWORD_HASH_COST,
};
let app: AppServer;
beforeAll(async () => {
  app = await startAppServer({ env: GUARD_ENV });
});
afterAll(async () => {
  await app.stop();
  removeDataDir(app);
});

const form = (email: string, password: string) => new URLSearchParams({ intent: "login", email, password }).toString();
const guardStats = async () =>
  (
    (await (await fetch(new URL("/healthz", app.url))).json()) as {
      signIns: {
        inFlight: number;
        refused: number;
        timedOut: number;
        verifications: { running: number; waiting: number };
      };
    }
  ).signIns;

// The two tests wait out the same 10-second deadline side by side (their addresses differ; neither counts
// what the other sends).
describe.concurrent("slow sign-in bodies", { timeout: 120_000 }, () => {
  it("16 trickled bodies from two addresses hold no place; each gets 408 in about 10 s", async ({ expect }) => {
    const slow = Array.from({ length: 16 }, (_, i) =>
      tricklePost(app.url, "/admin", {
        body: form(`slow${i}@example.test`, "wrong-password"),
        headers: { "X-Forwarded-For": `10.20.0.${i % 2}` },
        head: 10,
      }),
    );
    try {
      await Promise.all(slow.map((post) => post.taken)); // every slow post is in the server's hands
      expect((await guardStats()).inFlight).toBe(0);
      // Another address's sign-in, and one from each trickling address, are verified as usual.
      for (const address of ["10.20.1.1", "10.20.0.0", "10.20.0.1"]) {
        const other = await http(app, "/admin", {
          form: { intent: "login", email: "else@example.test", password: "wrong-password" },
          headers: { "X-Forwarded-For": address },
        });
        expect(other.status).toBe(401);
      }
      const answers = await Promise.all(slow.map((post) => post.answer));
      for (const answer of answers) {
        expect(answer.status).toBe(408);
        expect(answer.afterMs).toBeGreaterThan(9_000);
        expect(answer.afterMs).toBeLessThan(20_000);
      }
      expect((await guardStats()).timedOut).toBeGreaterThanOrEqual(16);
    } finally {
      for (const post of slow) post.stop();
    }
  });

  it("the JavaScript sign-in (/admin.data) and the other spellings of /admin get the same deadline", async ({
    expect,
  }) => {
    const paths = ["/admin.data", "/admin/", "/ADMIN", "/%61dmin", "/admin/?index"];
    const slow = paths.map((path, i) =>
      tricklePost(app.url, path, {
        body: form(`spelling${i}@example.test`, "wrong-password"),
        headers: { "X-Forwarded-For": `10.21.0.${i}` },
        head: 10,
      }),
    );
    try {
      const answers = await Promise.all(slow.map((post) => post.answer));
      expect(answers.map((answer) => answer.status)).toEqual(paths.map(() => 408));
    } finally {
      for (const post of slow) post.stop();
    }
  });
});

describe("the admin's own browser (device cookie)", { timeout: 120_000 }, () => {
  it("is never refused by the guard, even with its address's in-flight sign-ins at the bound", async () => {
    // A browser that signed in before from this address: it holds a device cookie.
    const signedIn = await fetch(new URL("/admin", app.url), {
      method: "POST",
      redirect: "manual",
      headers: { "X-Forwarded-For": "10.22.0.1", "Content-Type": "application/x-www-form-urlencoded" },
      body: form(TEST_ADMIN.email, TEST_ADMIN.password),
    });
    expect(signedIn.status).toBe(303);
    const device = /admin_device=[^;,]+/.exec(
      signedIn.headers.getSetCookie().find((cookie) => /^admin_device=[^;]/.test(cookie)) ?? "",
    )![0];
    const before = await guardStats();
    // Ten wrong sign-ins at once from that address: two being verified, eight waiting.
    const flood = Array.from({ length: 10 }, (_, i) =>
      http(app, "/admin", {
        form: { intent: "login", email: `flood${i}@example.test`, password: "wrong-password" },
        headers: { "X-Forwarded-For": "10.22.0.2" },
      }),
    );
    await waitFor(async () => (await guardStats()).inFlight >= 10, 10_000, "ten sign-ins in flight", 10);
    // Each is counted against the address's limit before it queues for verification. Once every one in
    // flight is queued, all ten are counted, and the own browser's attempt below is the address's eleventh
    // (over the limit: its answer may be a 429, but never the guard's).
    const counted = ({ inFlight, verifications }: Awaited<ReturnType<typeof guardStats>>) =>
      verifications.running + verifications.waiting >= inFlight;
    await waitFor(async () => counted(await guardStats()), 10_000, "every sign-in in flight counted", 10);
    const stranger = await http(app, "/admin", {
      form: { intent: "login", email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      headers: { "X-Forwarded-For": "10.22.0.2" },
    });
    expect(stranger.status).toBe(429);
    expect(stranger.body).toContain(TEXT.loginTooManyAtOnce);
    const own = await http(app, "/admin", {
      form: { intent: "login", email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      headers: { "X-Forwarded-For": "10.22.0.2", Cookie: device },
    });
    expect(own.body).not.toContain(TEXT.loginTooManyAtOnce);
    expect((await guardStats()).refused).toBe(before.refused + 1); // the stranger's only
    expect((await Promise.all(flood)).map((answer) => answer.status)).toEqual(Array(10).fill(401));
  });
});

describe("cookies follow the scheme the browser used", () => {
  const signIn = (headers: Record<string, string>) =>
    http(app, "/admin", { form: { intent: "login", email: TEST_ADMIN.email, password: TEST_ADMIN.password }, headers });

  it("Secure when a trusted proxy reports https (no https PUBLIC_URL), not over plain http", async () => {
    const overTls = await signIn({ "X-Forwarded-For": "10.24.0.1", "X-Forwarded-Proto": "https" });
    expect(overTls.status).toBe(303);
    const secure = overTls.headers.getSetCookie();
    expect(secure.find((cookie) => cookie.startsWith("admin_session="))).toMatch(/; Secure/i);
    expect(secure.find((cookie) => /^admin_device=[^;]/.test(cookie))).toMatch(/; Secure/i);
    const session = /admin_session=[^;]+/.exec(secure.find((cookie) => cookie.startsWith("admin_session="))!)![0];
    const signOut = await http(app, "/admin", {
      form: { intent: "logout" },
      cookie: session,
      headers: { "X-Forwarded-Proto": "https" },
    });
    expect(signOut.headers.getSetCookie().find((cookie) => cookie.startsWith("admin_session="))).toMatch(
      /Max-Age=0.*; Secure/i,
    );

    const plain = await signIn({ "X-Forwarded-For": "10.24.0.2" });
    expect(plain.status).toBe(303);
    for (const cookie of plain.headers.getSetCookie()) expect(cookie).not.toMatch(/; Secure/i);
  });

  it("a client that is not a trusted proxy cannot ask for it", async () => {
    // Straight to the app from an address TRUST_PROXY does not name: X-Forwarded-Proto is ignored.
    const untrusted = await startAppServer({
      env: {
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
        TRUST_PROXY: "10.0.0.1",
        SEED_DEMO: "false",
      },
    });
    try {
      const answer = await http(untrusted, "/admin", {
        form: { intent: "login", email: TEST_ADMIN.email, password: TEST_ADMIN.password },
        headers: { "X-Forwarded-Proto": "https" },
      });
      expect(answer.status).toBe(303);
      for (const cookie of answer.headers.getSetCookie()) expect(cookie).not.toMatch(/; Secure/i);
    } finally {
      await untrusted.stop();
      removeDataDir(untrusted);
    }
  });
});

describe("unknown emails cost what known ones do", { timeout: 120_000 }, () => {
  it("the first unknown email after a start is no slower than a known one (dummy hash made at start)", async () => {
    const fresh = await startAppServer({ env: GUARD_ENV });
    try {
      const timed = async (email: string, address: string) => {
        const started = performance.now();
        const answer = await http(fresh, "/admin", {
          form: { intent: "login", email, password: "wrong-password" },
          headers: { "X-Forwarded-For": address },
        });
        expect(answer.status).toBe(401);
        return performance.now() - started;
      };
      // Known emails before and after it (they never need the dummy hash): the machine's pace around it.
      const known: number[] = [];
      for (let i = 0; i < 2; i++) known.push(await timed(TEST_ADMIN.email, `10.25.1.${i}`));
      const firstUnknown = await timed("nobody@example.test", "10.25.0.1");
      for (let i = 2; i < 4; i++) known.push(await timed(TEST_ADMIN.email, `10.25.1.${i}`));
      // Made on first use, the dummy hash doubled the first unknown email's time (two scrypt runs).
      expect(firstUnknown).toBeLessThan(Math.max(...known) * 1.5);
    } finally {
      await fresh.stop();
      removeDataDir(fresh);
    }
  });
});
