import { AdminHeader } from "../components/admin/admin-header";
import { PortfolioInsightsView } from "../components/insights/portfolio-insights";
import { awaitingReply } from "../server/admin/desk.server";
import { requireAdmin } from "../server/admin/session.server";
import { portfolioInsights } from "../server/insights/portfolio-insights.server";
import type { Route } from "./+types/admin.insights";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  return {
    email: user.email,
    awaiting: (await awaitingReply()).count,
    insights: await portfolioInsights({ ownerEmail: null }),
  };
}

export function meta() {
  return [{ title: "Insights | Admin" }, { name: "robots", content: "noindex" }];
}

export default function AdminInsights({ loaderData }: Route.ComponentProps) {
  const { email, awaiting, insights } = loaderData;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <AdminHeader email={email} title="Insights" awaiting={awaiting} />
      <p className="mt-4 text-slate-300">The whole portfolio. Dates are UTC.</p>
      <PortfolioInsightsView insights={insights} nameHref={(id) => `/admin/domains/${id}`} />
    </main>
  );
}
