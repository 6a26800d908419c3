// Debian's caddy and nginx started from the files in deploy/, in front of a test server, over https.
// The deploy files are used as an operator installs them; only ports, the site's name, the upstream
// and (nginx) the certificate paths are replaced, and test-only global settings are added.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import tls from "node:tls";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../bench/support";
import { waitFor } from "./wait";

const projectRoot = path.resolve(import.meta.dirname, "../..");

export type ProxyKind = "caddy" | "nginx";

export interface RunningProxy {
  kind: ProxyKind;
  /** https://localhost:<port> */
  origin: string;
  httpsPort: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** A folder the proxies' unprivileged workers (nginx runs them as nobody under root) can enter. */
function workDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/** Debian installs nginx in /usr/sbin, which a non-root PATH may lack. */
function binary(name: string): string {
  return ["/usr/sbin", "/usr/bin"].map((dir) => path.join(dir, name)).find((file) => existsSync(file)) ?? name;
}

function deployFile(name: string): string {
  return readFileSync(path.join(projectRoot, "deploy", name), "utf8");
}

function replaceAll(text: string, replacements: Array<[string | RegExp, string]>): string {
  let result = text;
  for (const [from, to] of replacements) {
    const next = typeof from === "string" ? result.split(from).join(to) : result.replace(from, to);
    if (next === result) throw new Error(`deploy file template: "${String(from)}" not found`);
    result = next;
  }
  return result;
}

/** A self-signed certificate for localhost and the given names, made by openssl. */
function selfSignedCertificate(dir: string, names: string[]): { cert: string; key: string } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  const altNames = ["localhost", ...names].map((name) => `DNS:${name}`).join(",");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      `subjectAltName=${altNames}`,
    ],
    { stdio: "ignore" },
  );
  return { cert, key };
}

async function waitForListening(
  port: number,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 20_000,
): Promise<void> {
  const handshakes = async () => {
    if (child.exitCode !== null) throw new Error(`proxy exited with ${child.exitCode}:\n${output()}`);
    // Ready once a TLS handshake completes: caddy takes connections a moment before its certificate is
    // loaded, and a request then fails with "tlsv1 alert internal error".
    return new Promise<boolean>((resolve) => {
      const socket = tls.connect({ port, host: "127.0.0.1", servername: "localhost", rejectUnauthorized: false });
      socket.once("secureConnect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => (socket.destroy(), resolve(false)));
    });
  };
  await waitFor(handshakes, timeoutMs, `the proxy on ${port}`, 100).catch((error: Error) => {
    child.kill("SIGKILL");
    throw /^proxy exited/.test(error.message) ? error : new Error(`proxy did not listen on ${port}:\n${output()}`);
  });
}

function startChild(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    });
  return { child, output: () => output, stop };
}

/**
 * Starts a proxy on free ports in front of 127.0.0.1:<appPort>. Ports are chosen first, so the app can
 * be started with PUBLIC_URL = the proxy's origin before the proxy itself starts.
 */
export async function proxyPorts(): Promise<{ httpPort: number; httpsPort: number }> {
  return { httpPort: await freePort(), httpsPort: await freePort() };
}

/** `appPorts`: one app process, or several (a load balancer: nginx's upstream, caddy's reverse_proxy with several upstreams). */
export async function startProxy(
  kind: ProxyKind,
  ports: { httpPort: number; httpsPort: number },
  appPorts: number | number[],
  landerNames: string[],
): Promise<RunningProxy> {
  const upstreams = [appPorts].flat();
  const dir = workDir(`${kind}-test-`);
  const { httpPort, httpsPort } = ports;
  let running: ReturnType<typeof startChild>;
  if (kind === "caddy") {
    const config = replaceAll(deployFile("Caddyfile"), [
      // Test-only global options: no admin API, certificates from Caddy's own local CA (`tls internal`
      // for every site, on-demand ones included), nothing installed into the system's trust store.
      [
        /^\{\n/m,
        `{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n`,
      ],
      ["domains.example.com", "localhost"],
      [/reverse_proxy 127\.0\.0\.1:3000/g, `reverse_proxy ${upstreams.map((port) => `127.0.0.1:${port}`).join(" ")}`],
      ["127.0.0.1:3000", `127.0.0.1:${upstreams[0]}`],
    ]);
    const file = path.join(dir, "Caddyfile");
    writeFileSync(file, config);
    running = startChild(binary("caddy"), ["run", "--config", file, "--adapter", "caddyfile"], {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_DATA_HOME: path.join(dir, "data"),
      XDG_CONFIG_HOME: path.join(dir, "config"),
    });
  } else {
    const { cert, key } = selfSignedCertificate(dir, landerNames);
    const site = replaceAll(deployFile("nginx.conf"), [
      [/^\s*listen \[::\]:\d+.*\n/gm, ""],
      ["listen 80;", `listen 127.0.0.1:${httpPort};`],
      ["listen 443 ssl http2;", `listen 127.0.0.1:${httpsPort} ssl http2;`],
      ["server_name domains.example.com;", "server_name localhost;"],
      ["/etc/letsencrypt/live/domains.example.com/fullchain.pem", cert],
      ["/etc/letsencrypt/live/domains.example.com/privkey.pem", key],
      [/^\s*# server 10\.0\.0\.12.*\n/m, ""],
      [/server 127\.0\.0\.1:3000 (.*)/, upstreams.map((port) => `server 127.0.0.1:${port} $1`).join("\n    ")],
    ]);
    writeFileSync(path.join(dir, "site.conf"), site);
    const temp = path.join(dir, "temp");
    mkdirSync(temp, { mode: 0o777 });
    chmodSync(temp, 0o777);
    const main = [
      "daemon off;",
      "worker_processes 1;",
      `pid ${path.join(dir, "nginx.pid")};`,
      `error_log ${path.join(dir, "error.log")} warn;`,
      "events { worker_connections 1024; }",
      "http {",
      "  access_log off;",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(
        (name) => `  ${name}_temp_path ${path.join(temp, name)};`,
      ),
      `  include ${path.join(dir, "site.conf")};`,
      "}",
    ].join("\n");
    writeFileSync(path.join(dir, "nginx.conf"), main);
    running = startChild(
      binary("nginx"),
      ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")],
      { PATH: process.env.PATH },
    );
  }
  await waitForListening(httpsPort, running.child, running.output);
  return {
    kind,
    origin: `https://localhost:${httpsPort}`,
    httpsPort,
    output: () => running.output() + (kind === "nginx" ? safeRead(path.join(dir, "error.log")) : ""),
    stop: async () => {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

export interface HttpsReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One https request through a proxy as a browser elsewhere on the internet would make it: from its own
 * address (127.0.0.5, not the proxy's 127.0.0.1), with the host name as SNI and Host.
 */
export function httpsRequest(
  proxy: RunningProxy,
  pathAndQuery: string,
  options: { method?: string; host?: string; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<HttpsReply> {
  const host = options.host ?? "localhost";
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: Record<string, string> = { Host: `${host}:${proxy.httpsPort}`, ...options.headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    headers["Content-Length"] = String(Buffer.byteLength(body));
    headers.Origin ??= `https://${host}:${proxy.httpsPort}`;
  }
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: "127.0.0.1",
        port: proxy.httpsPort,
        path: pathAndQuery,
        method: options.method ?? (body === undefined ? "GET" : "POST"),
        servername: host,
        localAddress: "127.0.0.5",
        rejectUnauthorized: false,
        headers,
        agent: false,
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on("error", reject);
    request.setTimeout(30_000, () => request.destroy(new Error(`timeout: ${pathAndQuery}`)));
    request.end(body);
  });
}

/** The name=value pairs of a response's Set-Cookie headers, as a Cookie header. */
export function cookieFrom(reply: HttpsReply): string {
  const cookies = reply.headers["set-cookie"] ?? [];
  return (Array.isArray(cookies) ? cookies : [cookies]).map((cookie) => cookie.split(";")[0]).join("; ");
}
