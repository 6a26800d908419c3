// The admin forms' rules and texts, shared by the actions (validation) and the forms (attributes,
// messages). Browser-safe: nothing here may import server code.
import { z } from "zod";
import { parseStoredDomainName } from "./domain-name";

export const PASSWORD_MIN_LENGTH = 6;
export const DOMAINS_PER_PAGE = 50;
/** Card payments below this are refused by the provider, so a non-zero fee must reach it. */
export const MIN_CARD_FEE_CENTS = 50;
export const MAX_PRICE_CENTS = 100_000_000_000; // $1bn: a typo guard, not a business rule
export const MAX_FEE_CENTS = 1_000_000;

export const TEXT = {
  invalidPrice: "Please enter a valid price",
  priceFailed: "Error updating price. Please try again.",
  feeUpdated: "Inquiry fee updated successfully!",
  feeFailed: "Error updating inquiry fee. Please try again.",
  feeTooSmall: "The inquiry fee must be $0 (free) or at least $0.50: card payments cannot be smaller.",
  feeTooLarge: "The inquiry fee cannot be more than $10,000.",
  confirmDelete: "Are you sure you want to delete this domain?",
  deleteFailed: "Error deleting domain. Please try again.",
  loginFailed: "Invalid email or password.",
  loginLimited: "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
  loading: "Loading domains...",
  empty: "No domains added yet.",
} as const;

/** Messages shown after a redirect (Post/Redirect/Get), keyed by the `notice` search parameter. */
export const NOTICES: Record<string, string> = {
  "fee-updated": TEXT.feeUpdated,
  "price-updated": "Price updated.",
  "domain-added": "Domain added.",
  "domain-deleted": "Domain deleted.",
  "inquiry-answered": "Inquiry marked as answered.",
  "inquiry-refunded": "Inquiry refunded.",
  "inquiry-already-refunded": "This inquiry was already refunded.",
  "refund-pending": "Refund requested: the payment provider has not finished it yet.",
  "problem-settled": "Marked as settled.",
  "response-window-updated": "Response window updated.",
  "inquiry-answer-refused": "This inquiry cannot be marked as answered: it already is, or its reply deadline has passed (the fee is refunded automatically).",
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

/** The fee input: a non-numeric value becomes 0 (spec); a card fee between 0 and $0.50 is refused. */
export function parseFee(input: string): { cents: number } | { error: string } {
  const trimmed = input.trim();
  if (/^-/.test(trimmed) && Number.isFinite(Number(trimmed)) && Number(trimmed) < 0) return { error: TEXT.feeTooSmall };
  const cents = parseDollars(trimmed) ?? 0;
  if (cents > 0 && cents < MIN_CARD_FEE_CENTS) return { error: TEXT.feeTooSmall };
  if (cents > MAX_FEE_CENTS) return { error: TEXT.feeTooLarge };
  return { cents };
}

const optionalEmail = z
  .string()
  .trim()
  .max(254)
  .refine((value) => value === "" || z.email().safeParse(value).success, "Owner email must be a valid email address");

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
});

export type DomainEntry = z.output<typeof DomainEntrySchema>;
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

export const DOMAIN_SORT_VALUES = ["newest", "oldest", "price-desc", "price-asc", "views-desc", "started-desc", "paid-desc"] as const;
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
}

export type InboxStatus = "all" | "awaiting" | "answered" | "refunded";
export const INBOX_STATUSES: Array<{ value: InboxStatus; label: string }> = [
  { value: "all", label: "All" },
  { value: "awaiting", label: "Awaiting answer" },
  { value: "answered", label: "Answered" },
  { value: "refunded", label: "Refunded" },
];
