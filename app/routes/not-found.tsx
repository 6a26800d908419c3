import { data } from "react-router";
import { env } from "../server/runtime/env.server";

export function loader() {
  // The error boundary's title names the site, as every other page's title does.
  throw data({ siteName: env.SITE_NAME }, { status: 404 });
}

export default function NotFound() {
  return null;
}
