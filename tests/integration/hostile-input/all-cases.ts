// Every table of hostile cases. A feature adds its own file of cases and lists it here.
import { abuseCases } from "./abuse-cases";
import { adminCases } from "./admin-cases";
import { bodyCases, buyerCases, headerCases, type HostileCase } from "./cases";
import { paymentCases } from "./payment-cases";

export const allCases: HostileCase[] = [
  ...buyerCases,
  ...headerCases,
  ...bodyCases,
  ...paymentCases,
  ...adminCases,
  ...abuseCases,
];
