// Shapes of the portfolio insights (browser-safe): see app/server/insights/portfolio-insights.server.ts.

export const INSIGHT_MONTHS = 12;
export const INSIGHT_DAYS = 90;
export const INSIGHT_LIST_LENGTH = 20;

/** One UTC calendar month of fees, by the month each inquiry was paid in. */
export interface MonthFees {
  /** "YYYY-MM". */
  month: string;
  /** Fees paid in money (card), in cents, refunded ones included. */
  receivedCents: number;
  /** Of those, the fees refunded since, in cents. */
  refundedCents: number;
  /** receivedCents - refundedCents: the money the month's inquiries left with the site. */
  netCents: number;
  /** Inquiries paid with a credit code, and the fee each stood for, in cents. */
  creditCount: number;
  creditCents: number;
}

/** One UTC calendar month of sales, by the month each deal was paid in. */
export interface MonthSales {
  /** "YYYY-MM". */
  month: string;
  /** Deals paid that month and not refunded since (paid, transferred or completed). */
  sales: number;
  /** The sum of those deals' prices, in cents. */
  revenueCents: number;
}

export interface DayActivity {
  /** "YYYY-MM-DD" (UTC). */
  day: string;
  views: number;
  /** Inquiries paid that day (refunded ones included; free and credit-paid ones too, as in the funnel). */
  paid: number;
}

export interface NameActivity {
  id: number;
  domainName: string;
  askingPriceCents: number;
  /** Views in the last 90 days. */
  views: number;
  /** Inquiries paid in the last 90 days. */
  inquiries: number;
}

export interface PortfolioInsights {
  /** The last 12 months, oldest first, the current one last; months without fees are zeros. */
  months: MonthFees[];
  /** The same 12 months of sales, oldest first; months without a sale are zeros. */
  sales: MonthSales[];
  /** Whether the site has ever issued a credit or taken one as a fee (then the credit column is shown). */
  credits: boolean;
  /** The last 90 UTC days, oldest first, today last; days without views are zeros. */
  days: DayActivity[];
  /** The 20 most viewed live names of the last 90 days (ties: the older name first). */
  mostViewed: NameActivity[];
  /** Live names with views but no paid inquiry in the last 90 days, most viewed first, at most 20. */
  noInquiry: NameActivity[];
}

/** Views to inquiries as a percentage with one decimal ("2.5%"), or "-" without views. */
export function inquiryRate(name: Pick<NameActivity, "views" | "inquiries">): string {
  return name.views > 0 ? `${((name.inquiries / name.views) * 100).toFixed(1)}%` : "-";
}
