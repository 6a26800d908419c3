import type { Config } from "@react-router/dev/config";

// The baseline: a minimal React Router app, built and served the stock way (react-router-serve).
export default { ssr: true } satisfies Config;
