import { type RouteConfig, route } from "@react-router/dev/routes";

export default [route("domain/:domainName", "routes/domain.tsx")] satisfies RouteConfig;
