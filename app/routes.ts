import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("domain/:domainName", "routes/domain.tsx"),
  route("contact/:domainName", "routes/contact.tsx"),
  route("events/fee", "routes/events.fee.ts"),
  route("healthz", "routes/healthz.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
