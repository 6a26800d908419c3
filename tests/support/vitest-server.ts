// For Vitest files that share one server: `const app = useAppServer()` starts it before the file's
// tests and stops it (and removes its data folder) after them.
import { afterAll, beforeAll } from "vitest";
import { adminCookie, TEST_ADMIN } from "./admin";
import { removeDataDir, startAppServer, type AppServer, type StartOptions } from "./app-server";

export function useAppServer(options: StartOptions = {}): AppServer {
  let server: AppServer | undefined;
  beforeAll(async () => {
    server = await startAppServer(options);
  });
  afterAll(async () => {
    if (!server) return;
    await server.stop();
    removeDataDir(server);
  });
  // The handle exists at once (tests refer to it at the top of the file); the server behind it from beforeAll on.
  return new Proxy({} as AppServer, {
    get(_target, property) {
      if (!server) throw new Error("the app server is started in beforeAll: use it inside hooks and tests");
      const value = Reflect.get(server, property) as unknown;
      return typeof value === "function" ? value.bind(server) : value;
    },
  });
}

/**
 * A shared server with the test admin (TEST_ADMIN) and, from beforeAll on, that admin's session cookie:
 * `const { app, cookie } = useAdminAppServer()`, then `cookie()` inside tests.
 */
export function useAdminAppServer(options: StartOptions = {}): { app: AppServer; cookie: () => string } {
  const app = useAppServer({
    ...options,
    env: { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, ...options.env },
  });
  let cookie: string | undefined;
  beforeAll(async () => {
    cookie = await adminCookie(app.url);
  });
  return {
    app,
    cookie: () => {
      if (cookie === undefined) throw new Error("the admin cookie is made in beforeAll: use it inside tests");
      return cookie;
    },
  };
}
