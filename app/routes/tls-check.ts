// Caddy's on-demand TLS asks here (GET /tls-check?domain=name) before it gets a certificate for a host
// name it has not seen: 200 for the operator's hosts and listed domains whose DNS points at this server
// (app/server/http/tls-check.server.ts), 404 for anything else.
import { approveTlsName } from "../server/http/tls-check.server";
import type { Route } from "./+types/tls-check";

export async function loader({ request }: Route.LoaderArgs) {
  const domain = new URL(request.url).searchParams.get("domain");
  const ok = await approveTlsName(domain);
  return new Response(ok ? "ok\n" : "not served here\n", {
    status: ok ? 200 : 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
