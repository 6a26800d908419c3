import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export interface DomainsTable {
  id: Generated<number>;
  domain_name: string;
  asking_price_cents: number;
  tracking_id: string;
  owner_email: string;
  inquiry_count: Generated<number>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** The owner's private floor for offers (0040); never sent to buyers. */
  min_offer_cents: number | null;
  /** Computed by the database from domain_name (0160): after the first dot, and the name before it. */
  tld: Generated<string>;
  name_length: Generated<number>;
  /** 1 or 0 (0160). */
  has_hyphen: Generated<number>;
  has_digit: Generated<number>;
  /** A short description for buyers, plain text up to 300 characters (0162); NULL: none. */
  pitch: string | null;
  /** A price at which the name sells without talking (0240); NULL: none. */
  buy_now_cents: number | null;
  /** What the public page shows of a sale (0240): NULL, 'under_offer' or 'sold'. */
  sale_state: "under_offer" | "sold" | null;
  sold_at: string | null;
  /** The owner's "Accept offers at or above" (0240); private; NULL: none. */
  auto_accept_cents: number | null;
}

export interface SettingsTable {
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: string;
  expires_at: string;
}

/** An emailed owner sign-in code (0170): its SHA-256 with the row id, usable once until expires_at. */
export interface OwnerSignInCodesTable {
  id: string;
  email: string;
  code_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  failed_attempts: Generated<number>;
}

/** An owner's session (0170): the cookie's token as its SHA-256, for the owner's normalized email. */
export interface OwnerSessionsTable {
  id: string;
  email: string;
  created_at: string;
  expires_at: string;
}

export interface OwnerSignInsTable {
  email: string;
  last_sign_in_at: string;
}

export type InquiryStatus = "pending" | "paid" | "failed" | "refunded";

export interface InquiriesTable {
  id: Generated<number>;
  public_id: string;
  domain_id: number;
  domain_name: string;
  name: string;
  email: string;
  phone: string;
  message: string;
  offer: string;
  amount_cents: number;
  currency: string;
  status: InquiryStatus;
  provider: string;
  payment_intent_id: string | null;
  checkout_session_id: string | null;
  client_ip: string | null;
  created_at: string;
  paid_at: string | null;
  owner_notified_at: string | null;
  answered_at: string | null;
  refunded_at: string | null;
  last_error: string | null;
  /** Migration 0050 (refund promise): see db/migrations/0050_refund_promise.ts. */
  reply_deadline_at: string | null;
  answered_via: string | null;
  refund_attempts: Generated<number>;
  refund_next_attempt_at: string | null;
  refund_last_error: string | null;
  refund_lease_until: string | null;
  /** Migration 0080 (money path). NULL: no refund under way; see db/migrations/0080_money_path.ts. */
  refund_state: "pending" | "gave_up" | "settled" | null;
  refund_id: string | null;
  refund_key_seq: Generated<number>;
  expired_at: string | null;
  declines: Generated<number>;
  /** Migration 0151 (refund or credit): see db/migrations/0151_refund_or_credit.ts. */
  credit_offered_at: string | null;
  fee_choice: "refund" | "credit" | null;
  credited_at: string | null;
  /** Migration 0210: the domain's asking price when the inquiry was made; NULL when not known. */
  asking_price_cents: number | null;
  /** Migration 0220: the domain's owner email (trimmed) when the inquiry became paid; NULL before. */
  owner_email: string | null;
}

export interface PaymentRefsTable {
  ref_id: string;
  inquiry_id: number;
  kind: "payment" | "checkout";
  created_at: string;
  checks: Generated<number>;
  next_check_at: string;
  done_at: string | null;
}

export type StrayPaymentState = "due" | "pending" | "refunded" | "gave_up" | "settled";

/** A successful payment that cannot count for its inquiry and is refunded (migration 0080). */
export interface StrayPaymentsTable {
  payment_id: string;
  inquiry_id: number | null;
  provider: string;
  reason: "duplicate" | "mismatch" | "expired";
  amount_cents: number;
  state: StrayPaymentState;
  attempts: Generated<number>;
  key_seq: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  refund_id: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  inquiry_id: number | null;
  attempts: Generated<number>;
  next_attempt_at: string;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
  /** Claimed by a sending process until then (migration 0060); NULL when nobody is sending it. */
  lease_until: string | null;
  /** Refused permanently (SMTP 5xx) after a few attempts: not retried, shown in the admin (0080). */
  dead_at: string | null;
}

export interface ProcessedEventsTable {
  id: string;
  type: string;
  processed_at: string;
}

export interface TestPaymentsTable {
  id: string;
  client_secret: string;
  amount_cents: number;
  currency: string;
  status: "requires_payment_method" | "succeeded" | "failed" | "refunded" | "canceled";
  /** The reference: an inquiry's or a deal's public id, as `purpose` says (0240). */
  inquiry_public_id: string;
  purpose: Generated<"inquiry" | "deal">;
  domain_name: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface TestCheckoutsTable {
  id: string;
  payment_id: string;
  success_url: string;
  cancel_url: string;
  created_at: string;
}

export interface DomainDailyViewsTable {
  domain_id: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  views: number;
}

export interface DomainViewTotalsTable {
  domain_id: number;
  views: number;
}

/** The views of all names per UTC day, kept by triggers on domain_daily_views (migration 0180). */
export interface PortfolioDailyViewsTable {
  day: string;
  views: number;
}

/** One row (id 1); triggers bump `version` on every write to a table that public pages read. */
export interface ContentVersionTable {
  id: number;
  version: number;
}

/** One row (id 1): count and asking-price sum of live domains, kept by triggers (migration 0031). */
export interface DomainTotalsTable {
  id: number;
  live_count: number;
  live_value_cents: number;
}

/** Attempts per key in a fixed window, shared by every process (migration 0120; RATE_LIMIT_STORE=database). */
export interface RateLimitsTable {
  key: string;
  count: number;
  /** Epoch milliseconds at which the window ends. */
  reset_at: number;
}

/** A message of an inquiry's conversation after the buyer's first one (migration 0150). */
export interface InquiryMessagesTable {
  id: Generated<number>;
  inquiry_id: number;
  author: "buyer" | "owner";
  /** 'page': written on the inquiry page; 'site': the admin wrote as the owner from the inbox. */
  via: "page" | "site";
  body: string;
  created_at: string;
}

/** A credit worth one inquiry at any fee (migration 0151). */
export interface CreditsTable {
  id: Generated<number>;
  code: string;
  source_inquiry_id: number;
  created_at: string;
  expires_at: string;
  shown_at: string | null;
  used_at: string | null;
  used_by_inquiry_id: number | null;
}

/** A category of names (migration 0161); its page is /category/{slug}. */
export interface CategoriesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  created_at: string;
}

export interface DomainCategoriesTable {
  category_id: number;
  domain_id: number;
}

export interface Database {
  domains: DomainsTable;
  settings: SettingsTable;
  users: UsersTable;
  sessions: SessionsTable;
  owner_sign_in_codes: OwnerSignInCodesTable;
  owner_sessions: OwnerSessionsTable;
  owner_sign_ins: OwnerSignInsTable;
  inquiries: InquiriesTable;
  outbox: OutboxTable;
  processed_events: ProcessedEventsTable;
  test_payments: TestPaymentsTable;
  deals: DealsTable;
  offers: OffersTable;
  test_checkouts: TestCheckoutsTable;
  domain_daily_views: DomainDailyViewsTable;
  domain_view_totals: DomainViewTotalsTable;
  content_version: ContentVersionTable;
  domain_totals: DomainTotalsTable;
  payment_refs: PaymentRefsTable;
  stray_payments: StrayPaymentsTable;
  rate_limits: RateLimitsTable;
  inquiry_messages: InquiryMessagesTable;
  credits: CreditsTable;
  categories: CategoriesTable;
  domain_categories: DomainCategoriesTable;
  portfolio_daily_views: PortfolioDailyViewsTable;
}

export type Domain = Selectable<DomainsTable>;
export type NewDomain = Insertable<DomainsTable>;
export type DomainUpdate = Updateable<DomainsTable>;
export type Inquiry = Selectable<InquiriesTable>;
export type User = Selectable<UsersTable>;

export type DealStatus =
  | "checkout"
  | "agreed"
  | "paid"
  | "transferred"
  | "completed"
  | "cancelled"
  | "expired"
  /** The admin's "Refund deal" under way: the provider is being asked (admin-deals.server.ts). */
  | "refunding"
  | "refunded"
  | "lost";

/** One agreed price for one name (0240): by buy now or an accepted offer. Money in cents. */
export interface DealsTable {
  id: Generated<number>;
  public_id: string;
  domain_id: number;
  domain_name: string;
  /** The inquiry an accepted offer came from; NULL for buy now. */
  inquiry_id: number | null;
  origin: "buy_now" | "offer";
  price_cents: number;
  fee_credited_cents: Generated<number>;
  amount_due_cents: number;
  currency: Generated<string>;
  buyer_name: string;
  buyer_email: string;
  owner_email: string;
  /** 'checkout': a buy now being paid, holding nothing; 'lost': paid after another deal took the name (refunded). */
  status: DealStatus;
  provider: string;
  checkout_id: string | null;
  payment_id: string | null;
  /** The authorization code, encrypted (sale/transfer-code.server.ts). */
  transfer_code: string | null;
  transfer_note: string | null;
  last_error: string | null;
  created_at: string;
  pay_by: string | null;
  paid_at: string | null;
  transfer_due_at: string | null;
  transfer_sent_at: string | null;
  completed_at: string | null;
  closed_at: string | null;
  paid_out_at: string | null;
  /** When the buyer and the admin were told the transfer details are late (TRANSFER_DAYS). */
  overdue_notified_at: string | null;
  updated_at: string;
}
export type Deal = Selectable<DealsTable>;

export type OfferStatus = "open" | "accepted" | "declined" | "countered" | "replaced";

/** An offer on an inquiry (0240); open until expires_at (OFFER_DAYS). Money in cents. */
export interface OffersTable {
  id: Generated<number>;
  inquiry_id: number;
  side: "buyer" | "owner";
  amount_cents: number;
  status: OfferStatus;
  /** The conversation's message that carried it. */
  message_id: number | null;
  created_at: string;
  expires_at: string;
  answered_at: string | null;
}
export type Offer = Selectable<OffersTable>;
