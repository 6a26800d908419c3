// The /admin route's form posts, one handler per `intent`. Without JavaScript every success redirects
// back (Post/Redirect/Get) with a `notice`; a fetcher (js=1) gets the result as data instead.
import { data, redirect } from "react-router";
import {
  DomainEntrySchema,
  fieldErrors,
  parseFee,
  parsePrice,
  TEXT,
  type AdminActionResult,
} from "../../lib/admin-forms";
import { resolveReturnTo } from "../../lib/return-to";
import { addDomain, DomainExistsError, softDeleteDomain, updateDomainPrice } from "./admin-domains.server";
import { authenticateAdmin, LoginError } from "./auth.server";
import { BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from "../db/database.server";
import { createUserSession, destroyAllUserSessions, destroyUserSession, requireAdmin } from "./session.server";
import { setInquiryFee } from "../catalog/settings.server";
import { updateResponseWindow } from "../inquiries/response-window-action.server";
import { log } from "../runtime/log.server";
import { setSilencePolicy } from "../inquiries/refund-promise.server";

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

function withNotice(returnTo: string, notice: string): string {
  const url = new URL(returnTo, "http://local");
  for (const key of ["edit", "delete", "add", "notice"]) url.searchParams.delete(key);
  url.searchParams.set("notice", notice);
  return `${url.pathname}?${url.searchParams}`;
}

function done(form: FormData, result: AdminActionResult): Response | ReturnType<typeof data<AdminActionResult>> {
  if (form.get("js") === "1") return data(result);
  return redirect(withNotice(resolveReturnTo(text(form, "returnTo"), "/admin"), result.notice!), 303);
}

function failed(result: Omit<AdminActionResult, "ok">, status: number) {
  // 503 is "the database was busy": a temporary state, so say when to try again.
  const headers = status === 503 ? { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) } : undefined;
  return data<AdminActionResult>({ ...result, ok: false }, { status, headers });
}

function parseId(form: FormData): number | null {
  const id = Number(text(form, "id"));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** `clientAddress`: clientIp(context), what sign-in limits count by. */
export async function handleAdminAction(request: Request, clientAddress: string) {
  // A copy of the form: the sign-in strategy reads the request's own.
  const form = await request.clone().formData();
  const intent = text(form, "intent");
  if (intent === "login") return login(request, form, clientAddress);
  const user = await requireAdmin(request);
  switch (intent) {
    case "logout":
      return redirect("/admin", { status: 303, headers: { "Set-Cookie": await destroyUserSession(request) } });
    case "logout-everywhere":
      return redirect("/admin", {
        status: 303,
        headers: { "Set-Cookie": await destroyAllUserSessions(request, user.id) },
      });
    case "fee":
      return await updateFee(form);
    case "response-window":
      return await updateResponseWindow(form, done, failed);
    case "silence-policy": {
      const policy = text(form, "silencePolicy");
      if (policy !== "refund" && policy !== "choose")
        return failed({ intent: "silence-policy", error: "Choose one of the two options." }, 400);
      await setSilencePolicy(policy);
      return done(form, { intent: "silence-policy", ok: true, notice: "silence-policy-updated" });
    }
    case "price":
      return updatePrice(form);
    case "delete":
      return deleteDomain(form);
    case "add":
      return add(form);
    default:
      throw data({ intent, ok: false, error: "Unknown action." }, { status: 400 });
  }
}

async function login(request: Request, form: FormData, clientAddress: string) {
  try {
    const { user, deviceCookie, legacyDeviceCookie } = await authenticateAdmin(request, clientAddress);
    const headers = new Headers();
    headers.append("Set-Cookie", await createUserSession(request, user.id));
    headers.append("Set-Cookie", legacyDeviceCookie);
    headers.append("Set-Cookie", deviceCookie);
    return redirect("/admin", { status: 303, headers });
  } catch (error) {
    if (!(error instanceof LoginError)) throw error;
    const headers: HeadersInit = error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : {};
    return data<AdminActionResult>(
      {
        intent: "login",
        ok: false,
        error: error.message,
        fields: error.fields,
        values: { email: text(form, "email") },
      },
      { status: error.status, headers },
    );
  }
}

async function updateFee(form: FormData) {
  const parsed = parseFee(text(form, "fee"));
  if ("error" in parsed) return failed({ intent: "fee", error: parsed.error, values: { fee: text(form, "fee") } }, 400);
  // Free inquiries are a deliberate choice, never a typo's side effect: a second submit confirms them.
  if (parsed.cents === 0 && text(form, "confirmFree") !== "1") {
    return data<AdminActionResult>({
      intent: "fee",
      ok: false,
      confirm: TEXT.feeConfirmFree,
      values: { fee: text(form, "fee") },
    });
  }
  try {
    await setInquiryFee(parsed.cents);
  } catch (error) {
    log.error({ error }, "fee not changed");
    return failed(
      { intent: "fee", error: TEXT.feeFailed, values: { fee: text(form, "fee") } },
      isDatabaseBusy(error) ? 503 : 500,
    );
  }
  return done(form, { intent: "fee", ok: true, notice: "fee-updated" });
}

async function updatePrice(form: FormData) {
  const id = parseId(form);
  const cents = parsePrice(text(form, "price"));
  if (id === null || cents === null) {
    return failed(
      { intent: "price", id: id ?? undefined, error: TEXT.invalidPrice, values: { price: text(form, "price") } },
      400,
    );
  }
  try {
    if (!(await updateDomainPrice(id, cents))) return failed({ intent: "price", id, error: TEXT.priceFailed }, 404);
  } catch (error) {
    log.error({ error, domainId: id }, "price not changed");
    return failed(
      { intent: "price", id, error: TEXT.priceFailed, values: { price: text(form, "price") } },
      isDatabaseBusy(error) ? 503 : 500,
    );
  }
  return done(form, { intent: "price", ok: true, id, notice: "price-updated" });
}

async function deleteDomain(form: FormData) {
  const id = parseId(form);
  if (id === null) return failed({ intent: "delete", error: TEXT.deleteFailed }, 400);
  try {
    if (!(await softDeleteDomain(id))) return failed({ intent: "delete", id, error: TEXT.deleteFailed }, 404);
  } catch (error) {
    // The spec logs a failed delete; the admin still learns that the row is still there.
    log.error({ error, domainId: id }, "domain not deleted");
    return failed({ intent: "delete", id, error: TEXT.deleteFailed }, 500);
  }
  return done(form, { intent: "delete", ok: true, id, notice: "domain-deleted" });
}

async function add(form: FormData) {
  const values = {
    domainName: text(form, "domainName"),
    askingPrice: text(form, "askingPrice"),
    buyNowPrice: text(form, "buyNowPrice"),
    trackingId: text(form, "trackingId"),
    ownerEmail: text(form, "ownerEmail"),
    categories: text(form, "categories"),
    pitch: text(form, "pitch"),
  };
  const parsed = DomainEntrySchema.safeParse(values);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    return failed({ intent: "add", error: `Error adding domain: ${Object.values(fields)[0]}`, fields, values }, 400);
  }
  try {
    await addDomain(parsed.data);
  } catch (error) {
    const known = error instanceof DomainExistsError;
    if (!known) log.error({ error }, "domain not added");
    const message = known ? error.message : "the database could not save it. Please try again.";
    return failed({ intent: "add", error: `Error adding domain: ${message}`, values }, known ? 409 : 500);
  }
  return done(form, { intent: "add", ok: true, notice: "domain-added" });
}
