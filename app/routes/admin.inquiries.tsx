import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { AdminHeader } from "../components/admin/admin-header";
import { InquiryCard } from "../components/admin/inquiry-card";
import { CreditSummaryLine } from "../components/admin/inquiry-conversation";
import { PaymentProblems } from "../components/admin/payment-problems";
import { ErrorAlert, Notice } from "../components/admin/notice";
import { Pagination } from "../components/admin/pagination";
import { fieldClass, fieldHeight, secondaryButton } from "../components/ui";
import { INBOX_STATUSES, NOTICES, type InboxStatus } from "../lib/admin-forms";
import { resolveReturnTo } from "../lib/return-to";
import {
  creditSummary,
  listInbox,
  listPaymentProblems,
  markInquiryAnswered,
  replyAsOwner,
  answerOfferAsOwner,
  settleProblem,
} from "../server/admin/admin-inquiries.server";
import { awaitingReply } from "../server/admin/desk.server";
import { env } from "../server/runtime/env.server";
import { refundByAdmin } from "../server/refunds/auto-refund.server";
import { requireAdmin } from "../server/admin/session.server";
import type { ReplyRefusal } from "../components/admin/inquiry-conversation";
import type { Route } from "./+types/admin.inquiries";

const PER_PAGE = 50;
const INBOX_STATUS_VALUES = INBOX_STATUSES.map((option) => option.value) as [InboxStatus, ...InboxStatus[]];

const InboxQuery = z.object({
  domain: z
    .string()
    .catch("")
    .transform((value) => value.trim().toLowerCase().slice(0, 253)),
  status: z.enum(INBOX_STATUS_VALUES).catch("all"),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  notice: z.string().optional().catch(undefined),
  refund: z.coerce.number().int().positive().optional().catch(undefined),
});

const InboxAction = z.object({
  intent: z.enum([
    "answer",
    "refund",
    "settle-refund",
    "settle-payment",
    "reply",
    "accept-offer",
    "decline-offer",
    "counter-offer",
  ]),
  id: z.coerce.number().int().positive().optional(),
  paymentId: z.string().max(255).optional(),
  returnTo: z.string().catch("/admin/inquiries"),
  confirmed: z.string().optional(),
  message: z.string().optional(),
  counterAmount: z.string().optional(),
});

const CONFIRM_REFUND_FIRST = "Confirm the refund first: use the Refund button and answer its question.";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const query = InboxQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const inbox = await listInbox({ domain: query.domain, status: query.status, page: query.page, perPage: PER_PAGE });
  const problems = await listPaymentProblems();
  const credits = await creditSummary();
  return {
    siteName: env.SITE_NAME,
    email: user.email,
    awaiting: (await awaitingReply()).count,
    query,
    inbox,
    problems,
    credits,
    notice: query.notice ? (NOTICES[query.notice] ?? null) : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = InboxAction.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "Unknown action." }, { status: 400 });
  const { intent, id } = parsed.data;
  const back = (notice: string) => {
    const url = new URL(resolveReturnTo(parsed.data.returnTo, "/admin", "/admin/inquiries"), "http://local");
    url.searchParams.set("notice", notice);
    return redirect(`${url.pathname}?${url.searchParams}`, 303);
  };
  if (intent === "settle-payment") {
    if (!parsed.data.paymentId || !(await settleProblem({ paymentId: parsed.data.paymentId })))
      return data({ error: "Nothing to settle." }, { status: 409 });
    return back("problem-settled");
  }
  if (!id) return data({ error: "Unknown action." }, { status: 400 });
  if (intent === "settle-refund") {
    if (!(await settleProblem({ inquiryId: id }))) return data({ error: "Nothing to settle." }, { status: 409 });
    return back("problem-settled");
  }
  if (intent === "reply") {
    const replied = await replyAsOwner(id, parsed.data.message);
    if (replied.ok) return back("inquiry-replied");
    return data({ error: null, reply: { id, error: replied.error, text: replied.text } }, { status: replied.status });
  }
  if (intent === "accept-offer" || intent === "decline-offer" || intent === "counter-offer") {
    const answered = await answerOfferAsOwner(id, intent, parsed.data.counterAmount);
    if (answered.ok)
      return back(
        intent === "accept-offer" ? "offer-accepted" : intent === "decline-offer" ? "offer-declined" : "counter-sent",
      );
    return data(
      { error: null, offer: { id, error: answered.error, text: answered.text } as ReplyRefusal },
      { status: answered.status },
    );
  }
  if (intent === "answer") {
    return back((await markInquiryAnswered(id)) ? "inquiry-answered" : "inquiry-answer-refused");
  }
  // A refund cannot be undone: only the confirmation step's form (confirmed=1) makes one.
  if (parsed.data.confirmed !== "1") return data({ error: CONFIRM_REFUND_FIRST }, { status: 400 });
  const outcome = await refundByAdmin(id);
  if (outcome.status === "refunded") return back("inquiry-refunded");
  if (outcome.status === "already-refunded") return back("inquiry-already-refunded");
  if (outcome.status === "pending") return back("refund-pending");
  return data(
    { error: outcome.message },
    { status: outcome.status === "not-found" ? 404 : outcome.status === "not-refundable" ? 409 : 502 },
  );
}

export default function InquiriesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, awaiting, query, inbox, problems, credits, notice } = loaderData;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <AdminHeader email={email} title="Inquiries" awaiting={awaiting} />
      {notice ? <Notice>{notice}</Notice> : null}
      {actionData?.error ? <ErrorAlert className="mt-6">{actionData.error}</ErrorAlert> : null}
      <PaymentProblems {...problems} />
      <CreditSummaryLine {...credits} />
      <Form method="get" role="search" className="mt-8 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="filter-domain" className="text-sm text-slate-300">
            Domain
          </label>
          <input
            id="filter-domain"
            name="domain"
            type="search"
            defaultValue={query.domain}
            placeholder="example.com"
            className={`${fieldClass} mt-1 w-56`}
          />
        </div>
        <div>
          <label htmlFor="filter-status" className="text-sm text-slate-300">
            Status
          </label>
          <select
            id="filter-status"
            name="status"
            defaultValue={query.status}
            className={`${fieldClass} ${fieldHeight} mt-1 w-72 max-w-full`}
          >
            {INBOX_STATUSES.map((option) => (
              <option key={option.value} value={option.value}>
                {`${option.label} (${inbox.counts[option.value].toLocaleString("en-US")})`}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={`${secondaryButton} ${fieldHeight}`}>
          Filter
        </button>
      </Form>
      <InboxSummary counts={inbox.counts} status={query.status} />
      {inbox.rows.length === 0 ? (
        <p className="mt-6 rounded-xl border border-slate-800 p-6 text-center text-slate-300">
          {inbox.counts.all === 0 && !query.domain ? "No paid inquiries yet." : "No inquiries match this filter."}
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-4">
          {inbox.rows.map((inquiry) => (
            <li key={inquiry.id}>
              <InquiryCard
                inquiry={inquiry}
                confirmingRefund={query.refund === inquiry.id}
                replyRefusal={
                  actionData && "reply" in actionData && actionData.reply.id === inquiry.id ? actionData.reply : null
                }
                offerRefusal={
                  actionData && "offer" in actionData && actionData.offer?.id === inquiry.id ? actionData.offer : null
                }
              />
            </li>
          ))}
        </ul>
      )}
      <Pagination page={inbox.page} pageCount={inbox.pageCount} />
    </main>
  );
}

function inquiriesText(count: number): string {
  return count === 1 ? "1 inquiry" : `${count.toLocaleString("en-US")} inquiries`;
}

/**
 * How many inquiries the list shows, in the filter's words. Under All, what became of their fees: a
 * refunded or credited inquiry is not counted as paid.
 */
function InboxSummary({ counts, status }: { counts: Record<InboxStatus, number>; status: InboxStatus }) {
  const label = INBOX_STATUSES.find((option) => option.value === status)!.label;
  const paid = counts.awaiting + counts.answered + counts.closed;
  return (
    <p className="mt-4 text-sm text-slate-300" data-testid="inbox-summary">
      {status === "all"
        ? `${inquiriesText(counts.all)}: ${paid.toLocaleString("en-US")} paid, ${counts.credited.toLocaleString("en-US")} credited, ${counts.refunded.toLocaleString("en-US")} refunded`
        : `${inquiriesText(counts[status])}: ${label.toLowerCase()}`}
    </p>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Inquiries | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex, nofollow" }];
}
