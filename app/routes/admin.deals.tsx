import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { AdminHeader } from "../components/admin/admin-header";
import { LocalDate } from "../components/admin/local-date";
import { ErrorAlert, Notice } from "../components/admin/notice";
import { Pagination } from "../components/pagination";
import { card, secondaryButton } from "../components/ui";
import { formatUsd } from "../lib/money";
import { awaitingReply } from "../server/admin/desk.server";
import { requireAdmin } from "../server/admin/session.server";
import { env } from "../server/runtime/env.server";
import { listDeals, markPaidOut, owedToOwners, refundDeal } from "../server/sale/admin-deals.server";
import type { Route } from "./+types/admin.deals";

// The admin's Deals page (issue 37 item 5): every deal, a CSV export, what is owed to each owner with
// "Mark paid out", and "Refund deal" for a paid deal that is not completed.

const DealsAction = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("mark-paid-out"),
    owner: z.string().trim().min(1).max(254),
    through: z.string().trim().min(1).max(40),
  }),
  z.object({ intent: z.literal("refund-deal"), deal: z.string().trim().min(10).max(64) }),
]);

const NOTICES: Record<string, string> = {
  "paid-out": "Marked paid out.",
  refunded: "The deal was refunded in full; the name is back on sale.",
};

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const url = new URL(request.url);
  const page = Number(url.searchParams.get("page") ?? "1") || 1;
  const notice = url.searchParams.get("notice");
  const [deals, owed, awaiting] = await Promise.all([listDeals(page), owedToOwners(), awaitingReply()]);
  return {
    siteName: env.SITE_NAME,
    email: user.email,
    awaiting: awaiting.count,
    ...deals,
    owed,
    notice: notice ? (NOTICES[notice] ?? null) : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = DealsAction.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data(null, { status: 400 });
  if (parsed.data.intent === "mark-paid-out") {
    await markPaidOut(parsed.data.owner, parsed.data.through);
    return redirect("/admin/deals?notice=paid-out", 303);
  }
  const refunded = await refundDeal(parsed.data.deal);
  if (!refunded.ok) return data({ error: refunded.message }, { status: 409 });
  return redirect("/admin/deals?notice=refunded", 303);
}

export default function AdminDealsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, awaiting, rows, total, page, pageCount, owed, notice } = loaderData;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <AdminHeader email={email} title="Deals" awaiting={awaiting} />
      {notice && !actionData ? <Notice>{notice}</Notice> : null}
      {actionData?.error ? <ErrorAlert className="mt-6">{actionData.error}</ErrorAlert> : null}
      <section aria-labelledby="owed-heading" className={`${card} mt-8`}>
        <h2 id="owed-heading" className="text-xl font-semibold">
          Owed to owners
        </h2>
        {owed.length === 0 ? (
          <p className="mt-2 text-slate-300">Nothing is owed: no completed sale waits to be paid out.</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-800">
            {owed.map((row) => (
              <li key={row.owner} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <span className="break-all">{row.owner}</span>
                <span>{`${formatUsd(row.owedCents)} for ${row.deals} ${row.deals === 1 ? "sale" : "sales"}`}</span>
                <Form method="post">
                  <input type="hidden" name="owner" value={row.owner} />
                  <input type="hidden" name="through" value={row.through} />
                  <button type="submit" name="intent" value="mark-paid-out" className={secondaryButton}>
                    Mark paid out
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="deals-heading" className={`${card} mt-8`}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="deals-heading" className="text-xl font-semibold">
            {`${total} ${total === 1 ? "deal" : "deals"}`}
          </h2>
          <a href="/admin/export/deals.csv" className={secondaryButton} download>
            Export deals (CSV)
          </a>
        </div>
        {rows.length === 0 ? (
          <p className="mt-4 text-slate-300">No deals yet: a buy now or an accepted offer makes one.</p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-slate-400">
                <tr>
                  {["Name", "Price", "Fee credited", "Amount paid", "Buyer", "Owner", "Status", "Dates", ""].map(
                    (h) => (
                      <th key={h} scope="col" className="px-2 py-2 font-medium">
                        {h || <span className="sr-only">Actions</span>}
                      </th>
                    ),
                  )}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-800">
                {rows.map((deal) => (
                  <tr key={deal.id} data-deal={deal.domainName}>
                    <td className="px-2 py-2 break-all">{deal.domainName}</td>
                    <td className="px-2 py-2">{formatUsd(deal.priceCents)}</td>
                    <td className="px-2 py-2">
                      {deal.feeCreditedCents ? `-${formatUsd(deal.feeCreditedCents)}` : "—"}
                    </td>
                    <td className="px-2 py-2">
                      {deal.amountPaidCents === null ? "—" : formatUsd(deal.amountPaidCents)}
                    </td>
                    <td className="px-2 py-2 break-all">{deal.buyer}</td>
                    <td className="px-2 py-2 break-all">{deal.owner}</td>
                    <td className="px-2 py-2">
                      {deal.statusText}
                      {deal.transferLate ? (
                        <span className="block font-medium text-amber-300">Transfer overdue</span>
                      ) : null}
                      {deal.paidOutAt ? <span className="block text-slate-400">Paid out</span> : null}
                    </td>
                    <td className="px-2 py-2 text-slate-300">
                      <span className="block">
                        Agreed <LocalDate iso={deal.createdAt} />
                      </span>
                      {deal.paidAt ? (
                        <span className="block">
                          Paid <LocalDate iso={deal.paidAt} />
                        </span>
                      ) : null}
                      {deal.completedAt ? (
                        <span className="block">
                          Completed <LocalDate iso={deal.completedAt} />
                        </span>
                      ) : null}
                    </td>
                    <td className="px-2 py-2">
                      {deal.refundable ? (
                        <Form method="post">
                          <input type="hidden" name="deal" value={deal.publicId} />
                          <button type="submit" name="intent" value="refund-deal" className={secondaryButton}>
                            Refund deal
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          page={page}
          pageCount={pageCount}
          hrefFor={(target) => (target > 1 ? `/admin/deals?page=${target}` : "/admin/deals")}
        />
      </section>
    </main>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Deals | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex" }];
}
