// A buyer without JavaScript paying the inquiry fee through the pages, in process: the inquiry form, the
// test provider's checkout page and its Pay button, then the success step. The buyer's browser keeps its
// cookies in `jar` (the one naming the inquiry it started shows the success step's details).
import { findInquiryByPublicId } from "../../../app/server/inquiries/inquiries.server";
import type { Inquiry } from "../../../db/schema";
import { CookieJar } from "../cookie-jar";
import { BUYER, GOOD_CARD } from "../factories";
import { render } from "./document";
import { TEST_ORIGIN } from "./routes";

const local = (location: string | null) => {
  const url = new URL(location!, TEST_ORIGIN);
  return url.pathname + url.search;
};

export async function payThroughPages(
  domain: { short: string },
  buyer: Partial<typeof BUYER> = {},
  jar = new CookieJar(),
): Promise<Inquiry> {
  const started = await render(`/payment/${domain.short}`, { jar, form: { intent: "inquiry", ...BUYER, ...buyer } });
  if (started.status !== 303) throw new Error(`inquiry form answered ${started.status}`);
  const paid = await render(local(started.location), {
    jar,
    form: { card_number: GOOD_CARD.number, expiry: GOOD_CARD.expiry, cvc: GOOD_CARD.cvc },
  });
  const back = local(paid.location);
  const success = await render(back, { jar });
  if (!success.body.includes("Payment Successful!")) throw new Error("payment did not succeed");
  return (await findInquiryByPublicId(new URL(back, TEST_ORIGIN).searchParams.get("inquiry")!))!;
}
