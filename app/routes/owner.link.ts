import { data } from "react-router";
import { clientIp } from "../server/http/request-context.server";
import { signInWithLink } from "../server/owners/owner-auth.server";
import { isOwnerSignInOn } from "../server/owners/owner-settings.server";
import type { Route } from "./+types/owner.link";

// The one-click link of the sign-in email: signs in and goes to the desk, or back to the form with a message.
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!(await isOwnerSignInOn())) throw data(null, { status: 404 });
  return signInWithLink(request, clientIp(context));
}
