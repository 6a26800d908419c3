import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { awaitingReply } from "../server/admin/desk.server";
import { AdminHeader } from "../components/admin/admin-header";
import { ErrorAlert, Notice } from "../components/admin/notice";
import { card, fieldClass, inputClass, primaryButton } from "../components/ui";
import { isLegalSlug, LEGAL_PAGES, MAX_LEGAL_TEXT_LENGTH } from "../lib/legal-pages";
import {
  getContactEmail,
  getCustomLegalText,
  legalPageText,
  setContactEmail,
  setCustomLegalText,
} from "../server/catalog/legal-pages.server";
import { requireAdmin } from "../server/admin/session.server";
import type { Route } from "./+types/admin.pages";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const saved = new URL(request.url).searchParams.get("saved");
  const pages = await Promise.all(
    LEGAL_PAGES.map(async (page) => ({
      ...page,
      custom: await getCustomLegalText(page.slug),
      shown: (await legalPageText(page.slug)).text,
    })),
  );
  return {
    email: user.email,
    awaiting: (await awaitingReply()).count,
    pages,
    contactEmail: (await getContactEmail()) ?? "",
    saved: saved && (isLegalSlug(saved) || saved === "contact") ? saved : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await request.formData();
  if (form.get("intent") === "contact") {
    const contact = String(form.get("contactEmail") ?? "").trim();
    if (contact && !z.email().max(254).safeParse(contact).success) {
      return data(
        {
          slug: "contact",
          error: "Enter an email address such as hello@example.com, or leave it empty.",
          value: contact,
        },
        { status: 400 },
      );
    }
    await setContactEmail(contact);
    return redirect("/admin/pages?saved=contact", 303);
  }
  const slug = String(form.get("page") ?? "");
  const text = String(form.get("text") ?? "");
  if (!isLegalSlug(slug)) return data({ slug, error: "Unknown page.", value: "" }, { status: 400 });
  if (text.length > MAX_LEGAL_TEXT_LENGTH) {
    const error = `The text is longer than ${MAX_LEGAL_TEXT_LENGTH.toLocaleString("en-US")} characters.`;
    return data({ slug, error, value: "" }, { status: 400 });
  }
  await setCustomLegalText(slug, text);
  return redirect(`/admin/pages?saved=${slug}`, 303);
}

export function meta() {
  return [{ title: "Pages | Admin" }, { name: "robots", content: "noindex" }];
}

export default function AdminPages({ loaderData, actionData }: Route.ComponentProps) {
  const { email, awaiting, pages, saved, contactEmail } = loaderData;
  const contactError = actionData?.slug === "contact" ? actionData : undefined;
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <AdminHeader email={email} title="Pages" awaiting={awaiting} />
      {saved ? (
        <Notice>{`${saved === "contact" ? "Contact address" : pages.find((page) => page.slug === saved)?.title} saved.`}</Notice>
      ) : null}
      <Form method="post" className={`${card} mt-6`}>
        <label htmlFor="contact-email" className="text-xl font-semibold">
          Contact address
        </label>
        <p id="contact-email-help" className="mt-1 text-sm text-slate-300">
          Shown in every page&apos;s footer and in the default pages. Card processors expect a contact on the site.
        </p>
        <div className="mt-2 flex flex-wrap gap-2">
          <input
            id="contact-email"
            name="contactEmail"
            type="email"
            defaultValue={contactError?.value ?? contactEmail}
            aria-invalid={contactError ? true : undefined}
            aria-describedby={contactError ? "contact-email-error contact-email-help" : "contact-email-help"}
            className={`${fieldClass} w-80`}
          />
          <button type="submit" name="intent" value="contact" className={primaryButton}>
            Save contact address
          </button>
        </div>
        {contactError ? <ErrorAlert id="contact-email-error">{contactError.error}</ErrorAlert> : null}
      </Form>
      <p className="mt-6 text-slate-300">
        Plain text or Markdown (## headings, - lists, **bold**, [links](https://example.com)). Leave a page empty to
        show its default, which states the current fee and refund promise.
      </p>
      {pages.map((page) => (
        <Form key={page.slug} method="post" className={`${card} mt-6`}>
          <input type="hidden" name="page" value={page.slug} />
          <label htmlFor={`page-${page.slug}`} className="text-xl font-semibold">
            {page.title}
          </label>
          <p className="mt-1 text-sm text-slate-300">
            Shown at{" "}
            <a href={`/${page.slug}`} className="text-blue-300 underline underline-offset-4">
              /{page.slug}
            </a>
            {page.custom ? "" : " (the default text now)"}
          </p>
          <textarea
            id={`page-${page.slug}`}
            name="text"
            rows={10}
            maxLength={MAX_LEGAL_TEXT_LENGTH}
            defaultValue={page.custom}
            placeholder={page.shown}
            className={`${inputClass} font-mono text-sm`}
          />
          {actionData?.slug === page.slug ? (
            <ErrorAlert id={`page-${page.slug}-error`}>{actionData.error}</ErrorAlert>
          ) : null}
          <button type="submit" className={`${primaryButton} mt-3`}>
            Save {page.title}
          </button>
        </Form>
      ))}
    </main>
  );
}
