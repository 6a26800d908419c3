import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request on a connection of its own (never a pooled keep-alive socket), with exactly the Host header
 * given (fetch would not send a malformed one), to a server's address.
 */
export function requestOnNewConnection(
  baseUrl: string,
  path: string,
  host: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const target = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: options.method ?? "GET",
        setHost: false,
        agent: false,
        headers: { Host: host, ...options.headers },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}
