// Shapes and constants of the per-domain funnel, for the admin views (browser-safe).

export const FUNNEL_DAYS = 30;

export interface FunnelTotals {
  views: number;
  inquiries_started: number;
  inquiries_paid: number;
}

export interface FunnelDay {
  day: string;
  views: number;
  started: number;
  paid: number;
}
