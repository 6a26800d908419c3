import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { hashPassword } from "../../app/server/admin/passwords.server";
import { adminCookie, payInquiry } from "../support/admin";
import { runScript, startAppServer, type AppServer } from "../support/app-server";
import { waitFor } from "../support/http";
import { useTempFolders } from "../support/temp-folders";

// Files on disk, the rule for new admin passwords, and sessions that end with a password change.
// Every test starts its own processes; on a busy machine each start can take several seconds.
vi.setConfig({ testTimeout: 180_000 });

const tempFolder = useTempFolders("domains-accounts-");
/** A data folder that is not there yet: the server makes it. */
const freshDataDir = () => path.join(tempFolder(), "data");

const onPostgres = process.env.TEST_DATABASE === "postgres";
const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

async function startFailure(env: Record<string, string>, dataDir = freshDataDir()): Promise<string> {
  return startAppServer({ env, dataDir, timeoutMs: 120_000 }).then(
    async (server) => {
      await server.stop();
      throw new Error(`the server started although it should not have:\n${server.output()}`);
    },
    (failure: Error) => failure.message,
  );
}

/** Whether a session cookie still opens the Admin Panel. */
async function signedIn(app: AppServer, cookie: string): Promise<boolean> {
  const page = await fetch(new URL("/admin", app.url), { headers: { Cookie: cookie } });
  return (await page.text()).includes("Sign Out");
}

describe("files in the data folder are the server user's alone", () => {
  // The modes of the SQLite file and its WAL, and of a backup (scripts/backup.ts copies the SQLite file).
  it.skipIf(onPostgres)("data folder 0700; database, session secret, mail and backups 0600", async () => {
    const dataDir = freshDataDir();
    const app = await startAppServer({
      dataDir,
      env: { ADMIN_EMAIL: "owner@example.test", ADMIN_PASSWORD: "a-long-enough-password" },
    });
    try {
      await payInquiry(app, "velora"); // an owner email, written to data/mail without SMTP
      const mailDir = path.join(dataDir, "mail");
      // The folder appears with the first mail, which the outbox writes a moment after the payment.
      const mail = await waitFor(
        () =>
          existsSync(mailDir) &&
          readdirSync(mailDir, { withFileTypes: true }).find((entry) => entry.name.endsWith(".eml")),
        20_000,
        "a mail file",
      );
      const backup = await runScript(app, "backup.ts");
      expect(backup.code, backup.output).toBe(0);
      const backupFile = readdirSync(path.join(dataDir, "backups"))[0]!;
      const modes = {
        dataDir: mode(dataDir),
        database: mode(path.join(dataDir, "app.db")),
        wal: mode(path.join(dataDir, "app.db-wal")),
        secret: mode(path.join(dataDir, "session-secret")),
        mailDir: mode(mailDir),
        mail: mode(path.join(mailDir, mail.name)),
        backupDir: mode(path.join(dataDir, "backups")),
        backup: mode(path.join(dataDir, "backups", backupFile)),
      };
      expect(modes).toEqual({
        dataDir: "700",
        database: "600",
        wal: "600",
        secret: "600",
        mailDir: "700",
        mail: "600",
        backupDir: "700",
        backup: "600",
      });
    } finally {
      await app.stop();
    }
  });

  // On PostgreSQL SESSION_SECRET is required in the environment (the tests set it), so the file is never read.
  it.skipIf(onPostgres).each([
    { content: "", says: "is empty" },
    { content: "short\n", says: "is only 5 characters" },
  ])("a session-secret file that $says stops the start", async ({ content, says }) => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, "session-secret"), content);
    const output = await startFailure({}, dataDir);
    expect(output).toContain("SESSION_SECRET:");
    expect(output).toContain(says);
    expect(output).toMatch(/server exited with 1/);
  });
});

describe("a new admin password needs 12 characters and may not be a common one", () => {
  it.each([
    { password: "eleven-char", says: "ADMIN_PASSWORD: the new password must be at least 12 characters" },
    {
      password: "qwerty123456",
      says: "ADMIN_PASSWORD: the new password is one of the most common passwords; choose another",
    },
    { password: "1q2w3e4r5t6y", says: "is one of the most common passwords" },
  ])("ADMIN_PASSWORD=$password stops the start", async ({ password, says }) => {
    const output = await startFailure({ ADMIN_EMAIL: "owner@example.test", ADMIN_PASSWORD: password });
    expect(output).toContain(says);
  });

  it("an existing admin whose password is already ADMIN_PASSWORD starts as before (the sign-in form keeps the 6-character rule)", async () => {
    const dataDir = freshDataDir();
    const first = await startAppServer({ dataDir, env: { SEED_DEMO: "false" } });
    first
      .db()
      .prepare("INSERT INTO users (email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?)")
      .run("old@example.test", await hashPassword("sixsix", 10), "2026-01-01", "2026-01-01");
    await first.stop();
    const again = await startAppServer({
      dataDir,
      env: { SEED_DEMO: "false", ADMIN_EMAIL: "old@example.test", ADMIN_PASSWORD: "sixsix" },
    });
    try {
      expect(
        await signedIn(again, await adminCookie(again.url, { email: "old@example.test", password: "sixsix" })),
      ).toBe(true);
      const refused = await runScript(again, "create-admin.ts", ["old@example.test", "password1234"]);
      expect(refused.code).toBe(2);
      expect(refused.output).toContain(
        "Password refused: the new password is one of the most common passwords; choose another.",
      );
      const short = await runScript(again, "create-admin.ts", ["old@example.test", "short-pass"]);
      expect(short.code).toBe(2);
      expect(short.output).toContain("must be at least 12 characters");
    } finally {
      await again.stop();
    }
  });
});

describe("sessions end when the password changes", () => {
  it("create-admin and ADMIN_PASSWORD end every session of that admin; a restart with the same password does not", async () => {
    const dataDir = freshDataDir();
    const admin = { email: "owner@example.test", password: "first-long-password" };
    let app = await startAppServer({
      dataDir,
      env: { SEED_DEMO: "false", ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
    });
    const phone = await adminCookie(app.url, admin);
    const laptop = await adminCookie(app.url, admin);
    await app.stop();

    app = await startAppServer({
      dataDir,
      env: { SEED_DEMO: "false", ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
    });
    expect([await signedIn(app, phone), await signedIn(app, laptop)]).toEqual([true, true]);

    const changed = await runScript(app, "create-admin.ts", [admin.email, "second-long-password"]);
    expect(changed.code, changed.output).toBe(0);
    expect(changed.output).toContain("2 session(s) of this admin were signed out");
    expect([await signedIn(app, phone), await signedIn(app, laptop)]).toEqual([false, false]);
    const afterScript = await adminCookie(app.url, { ...admin, password: "second-long-password" });
    await app.stop();

    app = await startAppServer({
      dataDir,
      env: { SEED_DEMO: "false", ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: "third-long-password" },
    });
    try {
      expect(await signedIn(app, afterScript)).toBe(false);
      expect(await signedIn(app, await adminCookie(app.url, { ...admin, password: "third-long-password" }))).toBe(true);
    } finally {
      await app.stop();
    }
  });

  it("Sign out everywhere ends the admin's other sessions too", async () => {
    const admin = { email: "owner@example.test", password: "everywhere-password" };
    const app = await startAppServer({
      dataDir: freshDataDir(),
      env: { SEED_DEMO: "false", ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
    });
    try {
      const here = await adminCookie(app.url, admin);
      const there = await adminCookie(app.url, admin);
      const panel = await (await fetch(new URL("/admin", app.url), { headers: { Cookie: here } })).text();
      expect(panel).toMatch(/<button[^>]*value="logout-everywhere"[^>]*>Sign out everywhere<\/button>/);
      const reply = await fetch(new URL("/admin", app.url), {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: here, "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(app.url).origin },
        body: new URLSearchParams({ intent: "logout-everywhere" }),
      });
      expect(reply.status).toBe(303);
      expect(reply.headers.get("set-cookie")).toMatch(/admin_session=;/);
      expect([await signedIn(app, here), await signedIn(app, there)]).toEqual([false, false]);
    } finally {
      await app.stop();
    }
  });
});
