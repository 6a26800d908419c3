import { hostNameFromHeader, hostNamesFromConfig, LOCAL_HOST_NAMES } from "../../lib/host";
import { findLiveDomainByName } from "./domains.server";
import { env } from "../runtime/env.server";

// The operator's own addresses (PUBLIC_URL, EXTRA_HOSTS, localhost) keep the splash and browse page.
export const operatorHostNames = new Set([
  ...LOCAL_HOST_NAMES,
  ...hostNamesFromConfig(env.PUBLIC_URL, env.EXTRA_HOSTS),
]);

/** A Host this server answers for: the operator's, or a listed domain pointed here. Any other is made up. */
export async function isKnownHost(hostHeader: string | null | undefined): Promise<boolean> {
  const name = hostNameFromHeader(hostHeader ?? null);
  if (!name) return false;
  return operatorHostNames.has(name) || (name.includes(".") && (await findLiveDomainByName(name)) !== null);
}
