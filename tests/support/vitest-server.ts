// For Vitest files that share one server: `const app = useAppServer()` starts it before the file's
// tests and stops it (and removes its data folder) after them.
import { afterAll, beforeAll } from "vitest";
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
