// The app's mail as the browser tests read it: a worker's server has no SMTP_URL, so each message is an
// .eml file in <data folder>/mail, named by the outbox's kind (app/server/mail/mail.server.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AppServer } from "./app-server";
import { waitFor } from "./http";
import type { ReceivedMail } from "./smtp";

/** The first email of `kind` that mentions `needle`, once it is written (waits up to 10 s). */
export function mailAbout(app: AppServer, kind: string, needle: string): Promise<ReceivedMail> {
  const mailDir = path.join(app.dataDir, "mail");
  return waitFor(
    () => {
      if (!existsSync(mailDir)) return null;
      for (const file of readdirSync(mailDir).filter((each) => each.includes(kind))) {
        const raw = readFileSync(path.join(mailDir, file), "utf8");
        if (raw.includes(needle)) return { raw, from: "", to: [] };
      }
      return null;
    },
    10_000,
    `${kind} email`,
  );
}

/** Every email written so far, raw. */
export function allMail(app: AppServer): string[] {
  const mailDir = path.join(app.dataDir, "mail");
  if (!existsSync(mailDir)) return [];
  return readdirSync(mailDir).map((file) => readFileSync(path.join(mailDir, file), "utf8"));
}
