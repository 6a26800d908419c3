// Run by the in-process projects' globalSetup (./global-setup.ts) in a process of its own, with DATABASE_URL
// naming the template: the database part of a server's start (migrations, demo domains), once per run.
// Each test file then gets a copy of the result (./setup.ts).
import { closeDatabase } from "../../../app/server/db/database.server";
import { prepareDatabase } from "../../../app/server/runtime/startup.server";

try {
  await prepareDatabase();
} finally {
  await closeDatabase();
}
