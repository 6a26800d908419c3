// Creates an admin or resets its password: `npm run create-admin -- admin@example.com 'a long password'`.
import { z } from "zod";
import { closeDatabase, migrateToLatest } from "../app/server/db.server";
import { upsertAdmin } from "../app/server/users.server";

const Args = z.tuple([z.email("give a valid email address"), z.string().min(6, "the password needs at least 6 characters")]);
const parsed = Args.safeParse(process.argv.slice(2, 4));
if (!parsed.success) {
  console.error(`Usage: npm run create-admin -- <email> <password>\n${parsed.error.issues.map((i) => i.message).join("\n")}`);
  process.exit(2);
}
const [email, password] = parsed.data;
await migrateToLatest();
const user = await upsertAdmin(email, password);
console.log(`Admin ${user.email} is ready.`);
closeDatabase();
