import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { AdminHeader } from "../components/admin/admin-header";
import { LocalDate } from "../components/admin/local-date";
import { Notice } from "../components/admin/notice";
import { SettingSwitch } from "../components/owner/owner-switch";
import { card, secondaryButton } from "../components/ui";
import { awaitingReply } from "../server/admin/desk.server";
import { requireAdmin } from "../server/admin/session.server";
import { listOwners } from "../server/owners/owner-admin.server";
import { destroyAllOwnerSessions, destroyOwnerSessionsOf } from "../server/owners/owner-session.server";
import {
  isOwnerSignInOn,
  mayOwnersChangePrices,
  setOwnerSignIn,
  setOwnersMayChangePrices,
} from "../server/owners/owner-settings.server";
import { env } from "../server/runtime/env.server";
import type { Route } from "./+types/admin.owners";

const OwnersAction = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("sign-out-everywhere"), email: z.string().trim().min(1).max(254) }),
  z.object({ intent: z.literal("owner-sign-in"), value: z.enum(["on", "off"]) }),
  z.object({ intent: z.literal("owner-prices"), value: z.enum(["on", "off"]) }),
]);

const NOTICES: Record<string, string> = {
  "signed-out": "That owner is signed out everywhere.",
  "sign-in-on": "Owner sign-in is on.",
  "sign-in-off": "Owner sign-in is off: owners cannot sign in, and their sessions no longer work.",
  "prices-on": "Owners may change their prices.",
  "prices-off": "Owners may no longer change their prices.",
};

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const notice = new URL(request.url).searchParams.get("notice");
  return {
    siteName: env.SITE_NAME,
    email: user.email,
    awaiting: (await awaitingReply()).count,
    signInOn: await isOwnerSignInOn(),
    pricesOn: await mayOwnersChangePrices(),
    ...(await listOwners()),
    notice: notice ? (NOTICES[notice] ?? null) : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = OwnersAction.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data(null, { status: 400 });
  const done = (notice: string) => redirect(`/admin/owners?notice=${notice}`, 303);
  switch (parsed.data.intent) {
    case "sign-out-everywhere":
      await destroyOwnerSessionsOf(parsed.data.email);
      return done("signed-out");
    case "owner-sign-in":
      await setOwnerSignIn(parsed.data.value === "on");
      // Off ends every owner session: turning it on again does not bring them back.
      if (parsed.data.value === "off") await destroyAllOwnerSessions();
      return done(`sign-in-${parsed.data.value}`);
    case "owner-prices":
      await setOwnersMayChangePrices(parsed.data.value === "on");
      return done(`prices-${parsed.data.value}`);
  }
}

export default function AdminOwnersPage({ loaderData }: Route.ComponentProps) {
  const { email, awaiting, signInOn, pricesOn, owners, total, notice } = loaderData;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <AdminHeader email={email} title="Owners" awaiting={awaiting} />
      {notice ? <Notice>{notice}</Notice> : null}
      <section aria-labelledby="owner-settings-heading" className={`${card} mt-8`}>
        <h2 id="owner-settings-heading" className="text-xl font-semibold">
          Settings
        </h2>
        <div className="mt-4 flex flex-col gap-4">
          <SettingSwitch
            intent="owner-sign-in"
            label="Owner sign-in"
            on={signInOn}
            hint="owners sign in at /owner with a code emailed to them."
          />
          <SettingSwitch
            intent="owner-prices"
            label="Owners may change their prices"
            on={pricesOn}
            hint="an owner may edit the asking price and minimum offer of their own names."
          />
        </div>
      </section>
      <section aria-labelledby="owners-heading" className="mt-10">
        <h2 id="owners-heading" className="text-xl font-semibold">
          {`Owner emails (${total})`}
        </h2>
        {owners.length < total ? (
          <p className="mt-2 text-sm text-slate-300">{`The first ${owners.length} by email.`}</p>
        ) : null}
        {owners.length === 0 ? (
          <p className="mt-4 rounded-xl border border-slate-800 p-6 text-center text-slate-300">
            No domain has an owner email.
          </p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-slate-300">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Owner email
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Domains
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Last sign-in
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Sessions
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {owners.map((owner) => (
                  <tr key={owner.email} className="border-t border-slate-800">
                    <th scope="row" className="py-2 pr-4 font-medium wrap-anywhere">
                      {owner.email}
                    </th>
                    <td className="py-2 pr-4 text-right">{owner.domains}</td>
                    <td className="py-2 pr-4">
                      {owner.lastSignInAt ? <LocalDate iso={owner.lastSignInAt} /> : "Never"}
                    </td>
                    <td className="py-2 pr-4 text-right">{owner.sessions}</td>
                    <td className="py-2">
                      <Form method="post">
                        <input type="hidden" name="email" value={owner.email} />
                        <button
                          type="submit"
                          name="intent"
                          value="sign-out-everywhere"
                          className={secondaryButton}
                          aria-label={`Sign out everywhere: ${owner.email}`}
                        >
                          Sign out everywhere
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `Owners | ${loaderData?.siteName ?? ""}` }, { name: "robots", content: "noindex, nofollow" }];
}
