import { Link, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { AddDomainDialog } from "../components/admin/add-domain-dialog";
import { AdminHeader } from "../components/admin/admin-header";
import { DeleteConfirmation } from "../components/admin/delete-confirmation";
import { DomainsTable } from "../components/admin/domains-table";
import { DomainsToolbar } from "../components/admin/domains-toolbar";
import { Pagination } from "../components/admin/pagination";
import { LoginForm } from "../components/admin/login-form";
import { Notice } from "../components/admin/notice";
import { SettingsBlock } from "../components/admin/settings-block";
import { StatCards } from "../components/admin/stat-cards";
import { primaryButton } from "../components/ui";
import { DOMAIN_SORT_VALUES, DOMAINS_PER_PAGE, NOTICES, type DomainSort } from "../lib/admin-forms";
import { MAX_SEARCH_LENGTH } from "../lib/search";
import { handleAdminAction } from "../server/admin/admin-actions.server";
import { clientIp } from "../server/http/request-context.server";
import { findLiveDomainById, listAdminDomains, portfolioStats } from "../server/admin/admin-domains.server";
import { env } from "../server/runtime/env.server";
import { getAdminUser } from "../server/admin/session.server";
import { getResponseWindowDays } from "../server/inquiries/refund-promise.server";
import { getSilencePolicy } from "../server/inquiries/refund-promise.server";
import { getInquiryFeeCents } from "../server/catalog/settings.server";
import { awaitingReply, feesLast30Days } from "../server/admin/desk.server";
import { now } from "../server/runtime/clock.server";
import { dueInText } from "../lib/desk";
import type { Route } from "./+types/admin";

const PanelQuery = z.object({
  q: z
    .string()
    .catch("")
    .transform((q) => q.trim().slice(0, MAX_SEARCH_LENGTH)),
  sort: z.enum(DOMAIN_SORT_VALUES).catch("newest"),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  edit: z.coerce.number().int().positive().optional().catch(undefined),
  delete: z.coerce.number().int().positive().optional().catch(undefined),
  notice: z.string().optional().catch(undefined),
});

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getAdminUser(request);
  if (!user) return { siteName: env.SITE_NAME, signedIn: false as const };
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const query = PanelQuery.parse(params);
  const stats = await portfolioStats();
  const listing = await listAdminDomains({
    search: query.q,
    sort: query.sort as DomainSort,
    page: query.page,
    perPage: DOMAINS_PER_PAGE,
    liveTotal: stats.totalDomains,
  });
  const awaiting = await awaitingReply();
  const desk = {
    awaiting: awaiting.count,
    nextDeadlineAt: awaiting.nextDeadlineAt,
    // Worded on the server: a relative time computed in the browser would differ from the page's.
    nextDeadlineIn: awaiting.nextDeadlineAt ? dueInText(Date.parse(awaiting.nextDeadlineAt) - now().getTime()) : null,
    fees: await feesLast30Days(),
  };
  const toDelete = query.delete ? ((await findLiveDomainById(query.delete)) ?? null) : null;
  return {
    siteName: env.SITE_NAME,
    signedIn: true as const,
    email: user.email,
    stats,
    desk,
    feeCents: await getInquiryFeeCents(),
    responseWindowDays: await getResponseWindowDays(),
    silencePolicy: await getSilencePolicy(),
    query,
    listing,
    toDelete,
    notice: query.notice ? (NOTICES[query.notice] ?? null) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleAdminAction(request, clientIp(context));
}

export default function AdminPage({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.signedIn) return <LoginForm result={actionData?.intent === "login" ? actionData : undefined} />;
  const { email, stats, desk, feeCents, responseWindowDays, silencePolicy, query, listing, toDelete, notice } =
    loaderData;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <AdminHeader email={email} awaiting={desk.awaiting} />
      {/* One message at a time: an earlier success gives way to what the last submit answered. */}
      {notice && !(actionData && !actionData.ok) ? <Notice>{notice}</Notice> : null}
      {toDelete ? (
        <DeleteConfirmation domain={toDelete} />
      ) : (
        <>
          <StatCards
            desk={desk}
            totalDomains={stats.totalDomains}
            feeCents={feeCents}
            totalValueCents={stats.totalValueCents}
          />
          <SettingsBlock
            feeCents={feeCents}
            result={actionData?.intent === "fee" ? actionData : undefined}
            responseWindowDays={responseWindowDays}
            responseWindowResult={actionData?.intent === "response-window" ? actionData : undefined}
            silencePolicy={silencePolicy}
          />
          <DomainsSection
            listing={listing}
            query={query}
            addResult={actionData?.intent === "add" ? actionData : undefined}
          />
        </>
      )}
    </main>
  );
}

function DomainsSection({
  listing,
  query,
  addResult,
}: {
  listing: Awaited<ReturnType<typeof listAdminDomains>>;
  query: z.infer<typeof PanelQuery>;
  addResult: Route.ComponentProps["actionData"];
}) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" && navigation.location.pathname === "/admin" && navigation.formMethod === undefined;
  const addOpen = searchParams.get("add") === "1" || (addResult !== undefined && !addResult.ok);
  const addParams = new URLSearchParams(searchParams);
  addParams.delete("notice");
  addParams.set("add", "1");
  return (
    <section aria-labelledby="domains-heading" className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="domains-heading" className="text-xl font-semibold">
          Domains
        </h2>
        <Link to={`/admin?${addParams}`} preventScrollReset className={primaryButton}>
          Add Domain
        </Link>
      </div>
      <DomainsToolbar q={query.q} sort={query.sort} total={listing.total} />
      {loading ? (
        <p role="status" className="mt-6 text-slate-300">
          Loading domains...
        </p>
      ) : listing.rows.length === 0 ? (
        <p className="mt-6 rounded-xl border border-slate-800 p-6 text-center text-slate-300">
          {query.q ? "No domains match your search." : "No domains added yet."}
        </p>
      ) : (
        <DomainsTable rows={listing.rows} editId={query.edit} sort={query.sort} />
      )}
      <Pagination page={listing.page} pageCount={listing.pageCount} />
      <AddDomainDialog open={addOpen} result={addResult} />
    </section>
  );
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  // A refused sign-in's Retry-After comes from the action.
  return actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  const siteName = loaderData?.siteName ?? "";
  const title = loaderData?.signedIn ? "Admin Panel" : "Admin Login";
  return [
    { title: `${title} | ${siteName}` },
    { name: "description", content: "Sign in to manage domains" },
    { name: "robots", content: "noindex, nofollow" },
  ];
}
