// The admin Settings block's response-window form (intent "response-window"), validated on the server.
import { data } from "react-router";
import type { AdminActionResult } from "../../lib/admin-forms";
import { parseResponseWindowDays, RESPONSE_WINDOW_FIELD } from "../../lib/response-window";
import { setResponseWindowDays } from "./refund-promise.server";

type Done = (form: FormData, result: AdminActionResult) => Response | ReturnType<typeof data<AdminActionResult>>;
type Failed = (result: Omit<AdminActionResult, "ok">, status: number) => ReturnType<typeof data<AdminActionResult>>;

export async function updateResponseWindow(form: FormData, done: Done, failed: Failed) {
  const raw = String(form.get(RESPONSE_WINDOW_FIELD) ?? "");
  const parsed = parseResponseWindowDays(raw);
  if (!parsed.ok)
    return failed({ intent: "response-window", error: parsed.message, values: { [RESPONSE_WINDOW_FIELD]: raw } }, 400);
  await setResponseWindowDays(parsed.days);
  return done(form, { intent: "response-window", ok: true, notice: "response-window-updated" });
}
