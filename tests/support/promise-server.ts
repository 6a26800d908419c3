// For Vitest files on the refund promise and the conversation after payment: one server with the test
// payments, a test SMTP server and an admin. Started before the file's tests, stopped after them.
// `harness.app` may be replaced (a restart); a server at a later time is `startServerAt(harness.app, ms)`.
import { afterAll, beforeAll } from "vitest";
import { removeDataDir, startAppServer, type AppServer } from "./app-server";
import { startSmtp, type TestSmtp } from "./smtp";

export function usePromiseServer(name: string, extraEnv: Record<string, string> = {}) {
  const admin = {
    email: `${name}-admin@example.test`,
    password: `${name}-admin-password`,
  };
  let smtp: TestSmtp | undefined;
  let app: AppServer | undefined;
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error("the servers are started in beforeAll: use them inside hooks and tests");
    return value;
  };
  const env = () => ({
    SMTP_URL: started(smtp).url,
    MAIL_RETRY_BASE_MS: "100",
    SESSION_SECRET: `${name}-secret-0123456789`,
    PUBLIC_URL: "https://domains.example.test",
    PAYMENTS: "test",
    REFUND_SCHEDULER_INTERVAL_MS: "100",
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ...extraEnv,
  });
  beforeAll(async () => {
    smtp = await startSmtp();
    app = await startAppServer({ env: env() });
  });
  afterAll(async () => {
    await app?.stop();
    if (app) removeDataDir(app);
    await smtp?.stop();
  });
  return {
    admin,
    env,
    get smtp() {
      return started(smtp);
    },
    get app() {
      return started(app);
    },
    set app(server: AppServer) {
      app = server;
    },
  };
}
