import type { Migration } from "kysely/migration";
import * as m0001 from "./0001_initial";
import * as m0002 from "./0002_inquiries";
import * as m0003 from "./0003_test_checkouts";
import * as m0040 from "./0040_domain_funnel";
import * as m0030 from "./0030_content_version";
import * as m0031 from "./0031_domain_totals";
import * as m0050 from "./0050_refund_promise";
import * as m0051 from "./0051_inquiries_content_version";
import * as m0060 from "./0060_outbox_lease";
import * as m0070 from "./0070_refund_uncounts_inquiry";
import * as m0080 from "./0080_money_path";
import * as m0110 from "./0110_admin_search_index";
import * as m0120 from "./0120_rate_limits";
import * as m0130 from "./0130_admin_search_trigrams";
import * as m0150 from "./0150_inquiry_messages";
import * as m0151 from "./0151_refund_or_credit";
import * as m0160 from "./0160_browse_filters";
import * as m0161 from "./0161_categories";
import * as m0162 from "./0162_pitch";
import * as m0170 from "./0170_owner_sign_in";
import * as m0180 from "./0180_insights";
import * as m0210 from "./0210_inquiry_asking_price";
import * as m0190 from "./0190_public_content_version";
import * as m0220 from "./0220_inquiry_owner_email";
import * as m0230 from "./0230_recredit_credit_paid_refund_choice";
import * as m0240 from "./0240_sale";
import * as m0245 from "./0245_sold_domains_index";
import * as m0250 from "./0250_sale_lookups";
import * as m0255 from "./0255_deal_lookups";

// Listed by hand because the server bundle cannot read a migrations folder at run time.
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_inquiries": m0002,
  "0003_test_checkouts": m0003,
  "0040_domain_funnel": m0040,
  "0030_content_version": m0030,
  "0031_domain_totals": m0031,
  "0050_refund_promise": m0050,
  "0051_inquiries_content_version": m0051,
  "0060_outbox_lease": m0060,
  "0070_refund_uncounts_inquiry": m0070,
  "0080_money_path": m0080,
  "0110_admin_search_index": m0110,
  "0120_rate_limits": m0120,
  "0130_admin_search_trigrams": m0130,
  "0150_inquiry_messages": m0150,
  "0151_refund_or_credit": m0151,
  "0160_browse_filters": m0160,
  "0161_categories": m0161,
  "0162_pitch": m0162,
  "0170_owner_sign_in": m0170,
  "0180_insights": m0180,
  "0210_inquiry_asking_price": m0210,
  "0190_public_content_version": m0190,
  "0220_inquiry_owner_email": m0220,
  "0230_recredit_credit_paid_refund_choice": m0230,
  "0240_sale": m0240,
  "0245_sold_domains_index": m0245,
  "0250_sale_lookups": m0250,
  "0255_deal_lookups": m0255,
};
