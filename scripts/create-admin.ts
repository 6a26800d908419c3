// Creates an admin or resets its password: `npm run create-admin -- admin@example.com 'a long password'`.
// A new password needs 12 characters and may not be a common one; changing it signs that admin out everywhere.
import { z } from "zod";
import { closeDatabase, migrateToLatest } from "../app/server/db/database.server";
import { PasswordPolicyError, upsertAdmin } from "../app/server/admin/users.server";

const Args = z.tuple([
  z.email("give a valid email address"),
  z.string().min(6, "the password needs at least 6 characters"),
]);
const parsed = Args.safeParse(process.argv.slice(2, 4));
if (!parsed.success) {
  console.error(
    `Usage: npm run create-admin -- <email> <password>\n${parsed.error.issues.map((i) => i.message).join("\n")}`,
  );
  process.exit(2);
}
const [email, password] = parsed.data;
await migrateToLatest();
try {
  const { user, changed, sessionsEnded } = await upsertAdmin(email, password);
  const signedOut = sessionsEnded > 0 ? ` ${sessionsEnded} session(s) of this admin were signed out.` : "";
  console.log(
    changed
      ? `Admin ${user.email} is ready.${signedOut}`
      : `Admin ${user.email} already has this password; nothing changed.`,
  );
} catch (error) {
  if (!(error instanceof PasswordPolicyError)) throw error;
  console.error(`Password refused: ${error.message}.`);
  process.exitCode = 2;
} finally {
  await closeDatabase();
}
