// The sale's emails, each through the outbox in the transaction that made the step (so sent once).
import type { Deal } from "../../../db/schema";
import { formatUsd } from "../../lib/money";
import type { Executor } from "../db/dialect.server";
import { queueEmail } from "../mail/mail.server";
import { formatUtc } from "../inquiries/refund-promise.server";
import { dealPageUrl } from "./deals.server";
import { publicOrigin } from "../inquiries/signed-links.server";
import { env } from "../runtime/env.server";

function amounts(deal: Deal): string[] {
  return [
    `Price: ${formatUsd(deal.price_cents)}`,
    ...(deal.fee_credited_cents > 0 ? [`Inquiry fee credited: -${formatUsd(deal.fee_credited_cents)}`] : []),
    `Amount paid: ${formatUsd(deal.amount_due_cents)}`,
  ];
}

export async function queueDealPaidEmails(deal: Deal, executor: Executor): Promise<void> {
  const due = deal.transfer_due_at ? formatUtc(deal.transfer_due_at) : "";
  await queueEmail(
    {
      kind: "deal_paid_buyer",
      to: deal.buyer_email,
      subject: `Payment received: ${deal.domain_name} is yours`,
      text: [
        `Hello ${deal.buyer_name},`,
        "",
        `Thank you: your payment for ${deal.domain_name} was received.`,
        "",
        ...amounts(deal),
        `Reference: ${deal.public_id}`,
        "",
        `The owner has been asked to send the transfer details by ${due}. They will be on your deal page,`,
        "never in an email. Follow the sale there (keep this link private):",
        dealPageUrl("buyer", deal.public_id),
      ].join("\n"),
    },
    executor,
  );
  await queueEmail(
    {
      kind: "deal_paid_owner",
      to: deal.owner_email,
      replyTo: deal.buyer_email,
      subject: `${deal.domain_name} has been sold for ${formatUsd(deal.price_cents)}`,
      text: [
        `${deal.domain_name} has been sold and paid for.`,
        "",
        ...amounts(deal),
        `Buyer: ${deal.buyer_name} <${deal.buyer_email}>`,
        "",
        `Please send the transfer details by ${due}: the authorization code, or a note that you pushed the`,
        "name to the buyer's registrar account. Send them on your deal page (keep this link private):",
        dealPageUrl("owner", deal.public_id),
      ].join("\n"),
    },
    executor,
  );
}

export async function queueTransferSentEmail(deal: Deal, executor: Executor): Promise<void> {
  await queueEmail(
    {
      kind: "deal_transfer_sent",
      to: deal.buyer_email,
      subject: `Transfer details for ${deal.domain_name} are ready`,
      text: [
        `Hello ${deal.buyer_name},`,
        "",
        `The owner of ${deal.domain_name} has sent the transfer details. For your safety they are shown only on`,
        "your deal page, not in this email. Once the name is in your account, confirm it there with",
        '"I have received the domain":',
        dealPageUrl("buyer", deal.public_id),
      ].join("\n"),
    },
    executor,
  );
}

export async function queueCompletedEmail(deal: Deal, executor: Executor): Promise<void> {
  await queueEmail(
    {
      kind: "deal_completed",
      to: deal.owner_email,
      subject: `Completed: the buyer received ${deal.domain_name}`,
      text: [
        `${deal.buyer_name} confirmed that ${deal.domain_name} arrived in their account. The sale is complete.`,
        "",
        ...amounts(deal),
        "",
        dealPageUrl("owner", deal.public_id),
      ].join("\n"),
    },
    executor,
  );
}

export async function queueLostEmail(deal: Deal, executor: Executor): Promise<void> {
  await queueEmail(
    {
      kind: "deal_lost",
      to: deal.buyer_email,
      subject: `${deal.domain_name} was sold to another buyer: your payment is refunded`,
      text: [
        `Hello ${deal.buyer_name},`,
        "",
        `${deal.domain_name} was sold to another buyer just before your payment arrived. Your payment of`,
        `${formatUsd(deal.amount_due_cents)} is being refunded in full to your original payment method.`,
      ].join("\n"),
    },
    executor,
  );
}

export async function queueDealAgreedEmail(deal: Deal, executor: Executor): Promise<void> {
  await queueEmail(
    {
      kind: "deal_agreed",
      to: deal.buyer_email,
      subject: `Deal agreed: ${deal.domain_name} for ${formatUsd(deal.price_cents)}`,
      text: [
        `Hello ${deal.buyer_name},`,
        "",
        `A deal is agreed: ${deal.domain_name} for ${formatUsd(deal.price_cents)}.`,
        "",
        `Deal agreed: ${formatUsd(deal.price_cents)}`,
        ...(deal.fee_credited_cents > 0 ? [`Inquiry fee credited: -${formatUsd(deal.fee_credited_cents)}`] : []),
        `To pay: ${formatUsd(deal.amount_due_cents)}`,
        deal.pay_by ? `Please pay by ${formatUtc(deal.pay_by)}; until then the name is held for you.` : "",
        "",
        "Pay on your deal page (keep this link private):",
        dealPageUrl("buyer", deal.public_id),
      ].join("\n"),
    },
    executor,
  );
}

/** An agreed deal left unpaid past its pay-by date: both sides are told the name is back on sale. */
export async function queueDealExpiredEmails(deal: Deal, executor: Executor): Promise<void> {
  const subject = `Deal expired: ${deal.domain_name} is back on sale`;
  const what = `The deal for ${deal.domain_name} at ${formatUsd(deal.price_cents)} was not paid in time and has expired.`;
  await queueEmail(
    {
      kind: "deal_expired_buyer",
      to: deal.buyer_email,
      subject,
      text: [
        `Hello ${deal.buyer_name},`,
        "",
        what,
        "The name is back on sale. To buy it still, make a new offer on your inquiry page.",
      ].join("\n"),
    },
    executor,
  );
  await queueEmail(
    {
      kind: "deal_expired_owner",
      to: deal.owner_email,
      subject,
      text: [what, "The name is back on sale; nothing is owed to you for this deal."].join("\n"),
    },
    executor,
  );
}

export async function queueLateTransferEmails(deal: Deal, executor: Executor): Promise<void> {
  await queueEmail(
    {
      kind: "deal_transfer_late_buyer",
      to: deal.buyer_email,
      subject: `The transfer details for ${deal.domain_name} are late`,
      text: [
        `Hello ${deal.buyer_name},`,
        "",
        `The owner of ${deal.domain_name} has not sent the transfer details in time. We have told the site's`,
        "admin, who will follow up with the owner or refund your payment in full.",
        "",
        dealPageUrl("buyer", deal.public_id),
      ].join("\n"),
    },
    executor,
  );
  if (!env.ADMIN_EMAIL) return;
  await queueEmail(
    {
      kind: "deal_transfer_late_admin",
      to: env.ADMIN_EMAIL,
      subject: `Transfer overdue: ${deal.domain_name}`,
      text: [
        `${deal.domain_name} was paid for (${formatUsd(deal.amount_due_cents)}) but the owner, ${deal.owner_email},`,
        "has not sent the transfer details in time. Follow up with them, or refund the buyer in full with",
        '"Refund deal" on the admin\'s Deals page (the name goes back on sale).',
        "",
        `${publicOrigin()}/admin/deals`,
      ].join("\n"),
    },
    executor,
  );
}
