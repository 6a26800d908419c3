// The admin's two switches for owners: whether owners may sign in at all, and whether they may change
// their names' prices. Both on unless the admin turned them off (a settings row "off").
import { getSetting, setSetting } from "../catalog/settings.server";

const SIGN_IN_KEY = "owner_sign_in";
const PRICES_KEY = "owners_may_change_prices";

export async function isOwnerSignInOn(): Promise<boolean> {
  return (await getSetting(SIGN_IN_KEY)) !== "off";
}

export async function setOwnerSignIn(on: boolean): Promise<void> {
  await setSetting(SIGN_IN_KEY, on ? "on" : "off");
}

export async function mayOwnersChangePrices(): Promise<boolean> {
  return (await getSetting(PRICES_KEY)) !== "off";
}

export async function setOwnersMayChangePrices(on: boolean): Promise<void> {
  await setSetting(PRICES_KEY, on ? "on" : "off");
}
