import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What deploy/ gives an operator: the systemd unit's sandbox and listen address, as systemd reads them.
const projectRoot = path.resolve(import.meta.dirname, "../..");
const unitFile = path.join(projectRoot, "deploy/domainvault.service");
const unit = readFileSync(unitFile, "utf8");

/** The [Service] settings, each name with every value it is given (a name may appear more than once). */
function serviceSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = "";
  for (const line of text.split("\n").map((raw) => raw.trim())) {
    if (line.startsWith("[")) section = line;
    if (section !== "[Service]" || line.startsWith("#") || !line.includes("=")) continue;
    const [name, ...rest] = line.split("=");
    settings.set(name!, [...(settings.get(name!) ?? []), rest.join("=")]);
  }
  return settings;
}

const hasSystemdAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;

describe("deploy/domainvault.service", () => {
  const settings = serviceSettings(unit);

  it("listens on 127.0.0.1 only, behind the proxy the Caddyfile and nginx config set up", () => {
    expect(settings.get("Environment")).toContain("HOST=127.0.0.1");
    expect(readFileSync(path.join(projectRoot, "deploy/Caddyfile"), "utf8")).toContain("reverse_proxy 127.0.0.1:3000");
    expect(readFileSync(path.join(projectRoot, "deploy/nginx.conf"), "utf8")).toContain("server 127.0.0.1:3000");
  });

  it.each([
    ["CapabilityBoundingSet", ""],
    ["PrivateDevices", "true"],
    ["ProtectKernelTunables", "true"],
    ["ProtectKernelModules", "true"],
    ["ProtectKernelLogs", "true"],
    ["ProtectControlGroups", "true"],
    ["RestrictNamespaces", "true"],
    ["RestrictSUIDSGID", "true"],
    ["LockPersonality", "true"],
    ["RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6"],
    ["SystemCallFilter", "@system-service"],
    ["UMask", "0077"],
    ["NoNewPrivileges", "true"],
    ["ProtectSystem", "strict"],
  ])("sets %s=%s", (name, value) => {
    expect(settings.get(name)).toContain(value);
  });

  it.runIf(hasSystemdAnalyze)(
    "passes systemd-analyze verify, and systemd-analyze security rates it OK or better",
    () => {
      const verify = spawnSync("systemd-analyze", ["verify", unitFile], { encoding: "utf8" });
      expect(verify.status, verify.stderr).toBe(0);
      expect(verify.stderr).not.toMatch(/unknown|invalid|ignoring/i);
      const security = spawnSync("systemd-analyze", ["security", "--offline=yes", "--no-pager", unitFile], {
        encoding: "utf8",
      });
      const overall = /Overall exposure level for domainvault\.service: ([\d.]+) (\w+)/.exec(security.stdout);
      expect(overall, security.stdout + security.stderr).not.toBeNull();
      expect(["SAFE", "OK"]).toContain(overall![2]);
      expect(Number(overall![1])).toBeLessThan(5);
    },
  );
});
