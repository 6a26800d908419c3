import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request with exactly the Host header given (fetch would not send a malformed one), to an app
 * server's address.
 */
export function requestWithHost(
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
        headers: { Host: host, "User-Agent": BROWSER_USER_AGENT, ...options.headers },
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

export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0";
export const BOT_USER_AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
