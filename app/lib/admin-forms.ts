// The admin forms' rules and texts, shared by the actions (validation) and the forms (attributes,
// messages). Browser-safe: nothing here may import server code.
import { z } from "zod";
import { cleanPitch, MAX_PITCH_LENGTH, parseCategoryList } from "./categories";
import { asciiEmail, parseStoredDomainName } from "./domain-name";
import { formatUsd } from "./money";

export const PASSWORD_MIN_LENGTH = 6;
export const DOMAINS_PER_PAGE = 50;
/** Card payments below this are refused by the provider, so a non-zero fee must reach it. */
export const MIN_CARD_FEE_CENTS = 50;
export const MAX_PRICE_CENTS = 100_000_000_000; // $1bn: a typo guard, not a business rule
export const MAX_FEE_CENTS = 1_000_000;
/** The most a buy now price may be (issue 37): $100,000,000. */
export const MAX_BUY_NOW_CENTS = 10_000_000_000;
/** In a CSV import's owner-email column: removes a listed domain's owner email (an empty cell keeps it). */
export const CLEAR_OWNER_EMAIL = "none";

export const TEXT = {
  invalidPrice: "Please enter a valid price",
  buyNowNotAnAmount: "Enter the buy now price as an amount in dollars, such as 25000, or leave it empty for none.",
  buyNowNotPositive: "The buy now price must be more than $0. Leave it empty for no buy now price.",
  buyNowTooLarge: "The buy now price cannot be more than $100,000,000.",
  autoAcceptInvalid:
    "Accept offers at or above must be an amount in dollars from $0.01 to $100,000,000, or empty for none.",
  buyNowHelp: "Optional, in dollars: a buyer may pay it and buy the name at once. Empty: no buy now price.",
  priceFailed: "Error updating price. Please try again.",
  feeUpdated: "Inquiry fee updated successfully!",
  feeFailed: "Error updating inquiry fee. Please try again.",
  feeTooSmall: "The inquiry fee must be $0 (free) or at least $0.50: card payments cannot be smaller.",
  feeTooLarge: "The inquiry fee cannot be more than $10,000.",
  feeNotANumber: "Enter the inquiry fee as a plain amount in dollars, such as 19.99.",
  feeTooManyDecimals: "The inquiry fee can have at most two decimals (whole cents).",
  feeHelp:
    "An amount in dollars: 0 (free inquiries) or from $0.50 to $10,000. An empty field also means 0. Setting 0 asks you to confirm.",
  feeConfirmFree:
    "Make inquiries free? With a fee of $0 buyers contact owners without paying: nothing is charged and there is no fee to refund.",
  feeConfirmFreeButton: "Yes, set the fee to $0",
  confirmDelete: "Are you sure you want to delete this domain?",
  deleteFailed: "Error deleting domain. Please try again.",
  loginFailed: "Invalid email or password.",
  loginBusy: "Too many sign-in attempts right now. Please try again in a moment.",
  loginTooManyAtOnce: "Too many sign-in attempts at once from your address. Please try again in a moment.",
  loading: "Loading domains...",
  empty: "No domains added yet.",
} as const;

/** The sign-in lockout message, with the wait the Retry-After header gives (rounded up, never less). */
export function loginLimitedText(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const wait = seconds < 60 ? plural(seconds, "second") : plural(Math.ceil(seconds / 60), "minute");
  return `Too many failed sign-in attempts. Please wait ${wait} and try again.`;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** Messages shown after a redirect (Post/Redirect/Get), keyed by the `notice` search parameter. */
export const NOTICES: Record<string, string> = {
  "fee-updated": TEXT.feeUpdated,
  "price-updated": "Price updated.",
  "domain-added": "Domain added.",
  "domain-deleted": "Domain deleted.",
  "inquiry-answered": "Inquiry marked as answered.",
  "inquiry-replied": "Reply sent to the buyer.",
  "offer-accepted": "Offer accepted: a deal is agreed.",
  "offer-declined": "The offer was declined.",
  "counter-sent": "Your counter-offer was sent.",
  "inquiry-refunded": "Inquiry refunded.",
  "inquiry-already-refunded": "This inquiry was already refunded.",
  "refund-pending": "Refund requested: the payment provider has not finished it yet.",
  "problem-settled": "Marked as settled.",
  "response-window-updated": "Response window updated.",
  "silence-policy-updated": "Saved: what happens when the owner does not reply in time.",
  "inquiry-answer-refused":
    "This inquiry cannot be marked as answered: it already is, or its reply deadline has passed (the fee is refunded automatically).",
};

export const LoginSchema = z.object({
  email: z.email("Please enter a valid email address").max(254),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(1024),
});

/** A decimal amount in dollars ("1500", "19.99", "1e3" is refused) to integer cents, or null. */
export function parseDollars(input: string): number | null {
  const text = input.trim().replace(/^\$/, "").replace(/,/g, "");
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(text)) return null;
  const cents = Math.round(Number(text) * 100);
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Price edit: a number, at least 0; otherwise the spec's "Please enter a valid price". */
export function parsePrice(input: string): number | null {
  const cents = parseDollars(input);
  return cents === null || cents > MAX_PRICE_CENTS ? null : cents;
}

/**
 * A buy now price in dollars (admin forms, the owner's Prices form, the CSV column): empty is none (null);
 * otherwise an amount above $0 and at most $100,000,000, or the message that says what is wrong.
 */
export function parseBuyNowPrice(input: string): { cents: number | null } | { error: string } {
  const text = input.trim();
  if (text === "") return { cents: null };
  if (/^-\s*\$?\s*[\d.]/.test(text)) return { error: TEXT.buyNowNotPositive };
  const cents = parseDollars(text);
  if (cents === null) return { error: TEXT.buyNowNotAnAmount };
  if (cents <= 0) return { error: TEXT.buyNowNotPositive };
  if (cents > MAX_BUY_NOW_CENTS) return { error: TEXT.buyNowTooLarge };
  return { cents };
}

/** A buy now price below the minimum offer would sell the name for less than the owner's floor. */
export function buyNowBelowMinimumText(minOfferCents: number): string {
  return `The buy now price cannot be below the minimum offer (${formatUsd(minOfferCents)}).`;
}

export function minimumAboveBuyNowText(buyNowCents: number): string {
  return `The minimum offer cannot be above the buy now price (${formatUsd(buyNowCents)}).`;
}

const PLAIN_DECIMAL = /^(\d{1,9})(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * An inquiry fee in dollars, for the admin form and `npm run set-fee` alike: only a plain decimal
 * ("19.99", "0", ".5") with at most two decimals, 0 (free) or from the card minimum to the maximum.
 * "1e3", "0x10", "Infinity", "1,5" or "0.001" are errors, never a silent $0 or $15.
 */
export function parseFeeAmount(input: string): { cents: number } | { error: string } {
  const text = input.trim();
  if (/^-\s*[\d.]/.test(text)) return { error: TEXT.feeTooSmall };
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return { error: TEXT.feeNotANumber };
  const whole = match[1] ?? "0";
  const decimals = match[2] ?? match[3] ?? "";
  if (decimals.length > 2) return { error: TEXT.feeTooManyDecimals };
  const cents = Number(whole) * 100 + Number(decimals.padEnd(2, "0"));
  if (cents > 0 && cents < MIN_CARD_FEE_CENTS) return { error: TEXT.feeTooSmall };
  if (cents > MAX_FEE_CENTS) return { error: TEXT.feeTooLarge };
  return { cents };
}

/** The fee form's field: as parseFeeAmount, except that an empty field means 0 (the spec's "non-numeric becomes 0"). */
export function parseFee(input: string): { cents: number } | { error: string } {
  return input.trim() === "" ? { cents: 0 } : parseFeeAmount(input);
}

/**
 * The owner email field accepts what a browser's type=email field accepts (the HTML standard's rule),
 * so a form posted without JavaScript, a script's post and a CSV row are judged alike. The browser sends
 * an internationalized domain in its ASCII form; the server does the same for whatever it is given.
 */
const optionalEmail = z
  .string()
  .trim()
  .transform(asciiEmail)
  .pipe(
    z
      .string()
      .max(254, "Owner email must be a valid email address")
      .refine((value) => value === "" || z.regexes.html5Email.test(value), "Owner email must be a valid email address"),
  );

/** One portfolio entry, from the Add Domain form or a CSV row. */
export const DomainEntrySchema = z.object({
  domainName: z
    .string()
    .trim()
    .min(1, "Domain name is required")
    .transform((value, ctx) => {
      const name = parseStoredDomainName(value);
      if (!name) {
        ctx.addIssue({ code: "custom", message: `"${value}" is not a valid domain name (e.g. example.com)` });
        return z.NEVER;
      }
      return name;
    }),
  askingPrice: z
    .string()
    .trim()
    .min(1, "Asking price is required")
    .transform((value, ctx) => {
      const cents = parsePrice(value);
      if (cents === null) {
        ctx.addIssue({ code: "custom", message: TEXT.invalidPrice });
        return z.NEVER;
      }
      return cents;
    }),
  trackingId: z.string().trim().min(1, "Tracking ID is required").max(200, "Tracking ID is too long"),
  ownerEmail: optionalEmail,
  /** Empty or absent: no buy now price (null). */
  buyNowPrice: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseBuyNowPrice(value ?? "");
      if ("error" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.cents;
    }),
  categories: z
    .string()
    .max(2000, "Categories are too long")
    .optional()
    .transform((value, ctx) => {
      const parsed = parseCategoryList(value ?? "");
      if ("error" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed;
    }),
  pitch: z
    .string()
    .optional()
    .transform((value) => cleanPitch(value ?? ""))
    .refine(
      (pitch) => pitch === null || [...pitch].length <= MAX_PITCH_LENGTH,
      `The pitch is longer than ${MAX_PITCH_LENGTH} characters`,
    ),
});

export type DomainEntry = z.output<typeof DomainEntrySchema>;

/** A listed domain's owner email (empty: none, the admin gets its inquiries) and tracking ID, on its admin page. */
export const DomainOwnerSchema = DomainEntrySchema.pick({ ownerEmail: true, trackingId: true });
export type DomainOwner = z.output<typeof DomainOwnerSchema>;
export type DomainEntryField = keyof z.input<typeof DomainEntrySchema>;

/** Zod issues to "field -> first message". */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}

export const DOMAIN_SORT_VALUES = [
  "newest",
  "oldest",
  "price-desc",
  "price-asc",
  "views-desc",
  "started-desc",
  "paid-desc",
] as const;
export type DomainSort = (typeof DOMAIN_SORT_VALUES)[number];
export const DOMAIN_SORTS: Array<{ value: DomainSort; label: string }> = [
  { value: "newest", label: "Newest first" },
  { value: "oldest", label: "Oldest first" },
  { value: "price-desc", label: "Price: high to low" },
  { value: "price-asc", label: "Price: low to high" },
  { value: "views-desc", label: "Most viewed" },
  { value: "started-desc", label: "Most inquiries started" },
  { value: "paid-desc", label: "Most paid inquiries" },
];

/** What an /admin form post answers with when it does not redirect. */
export interface AdminActionResult {
  intent: string;
  ok: boolean;
  notice?: string;
  error?: string;
  fields?: Record<string, string>;
  values?: Record<string, string>;
  id?: number;
  /** A question the admin must answer with a second submit (e.g. a fee of $0) before anything changes. */
  confirm?: string;
}

export type InboxStatus = "all" | "awaiting" | "answered" | "closed" | "credited" | "refunded";
/** The inbox's filters; every listed inquiry is in exactly one besides All (desk.server.ts). */
export const INBOX_STATUSES: Array<{ value: InboxStatus; label: string }> = [
  { value: "all", label: "All" },
  { value: "awaiting", label: "Awaiting answer" },
  { value: "answered", label: "Answered" },
  { value: "closed", label: "Past deadline, not answered" },
  { value: "credited", label: "Credited" },
  { value: "refunded", label: "Refunded" },
];
