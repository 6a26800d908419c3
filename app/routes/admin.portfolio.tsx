import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { awaitingReply } from "../server/admin/desk.server";
import { AdminHeader } from "../components/admin/admin-header";
import { ErrorAlert, Notice } from "../components/admin/notice";
import { card, fieldClass, primaryButton, secondaryButton } from "../components/ui";
import { env } from "../server/runtime/env.server";
import { CLEAR_OWNER_EMAIL } from "../lib/admin-forms";
import { importPortfolioCsv, MAX_IMPORT_BYTES, type RowError } from "../server/admin/portfolio-csv.server";
import { requireAdmin } from "../server/admin/session.server";
import type { Route } from "./+types/admin.portfolio";

const ImportedQuery = z.object({
  added: z.coerce.number().int().min(0).optional().catch(undefined),
  updated: z.coerce.number().int().min(0).optional().catch(undefined),
});

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request);
  const imported = ImportedQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return { siteName: env.SITE_NAME, email: user.email, awaiting: (await awaitingReply()).count, imported };
}

type ImportFailure = { errors: RowError[]; moreErrors: number; fileName?: string };

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const tooLarge = `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_IMPORT_BYTES + 64 * 1024) {
    return data<ImportFailure>({ errors: [{ line: 0, message: tooLarge }], moreErrors: 0 }, { status: 413 });
  }
  // The one read of the body (express only checked its size); a broken multipart body is the client's error.
  const form = await request.formData().catch(() => null);
  if (!form)
    return data<ImportFailure>(
      { errors: [{ line: 0, message: "The upload could not be read. Choose the CSV file again." }], moreErrors: 0 },
      { status: 400 },
    );
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) {
    return data<ImportFailure>(
      { errors: [{ line: 0, message: "Choose a CSV file to import." }], moreErrors: 0 },
      { status: 400 },
    );
  }
  if (file.size > MAX_IMPORT_BYTES)
    return data<ImportFailure>(
      { errors: [{ line: 0, message: tooLarge }], moreErrors: 0, fileName: file.name },
      { status: 413 },
    );
  const result = await importPortfolioCsv(new Uint8Array(await file.arrayBuffer()));
  if (!result.ok)
    return data<ImportFailure>(
      { errors: result.errors, moreErrors: result.moreErrors, fileName: file.name },
      { status: 400 },
    );
  return redirect(`/admin/portfolio?added=${result.added}&updated=${result.updated}`, 303);
}

export default function PortfolioPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, awaiting, imported } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <main className="mx-auto w-full max-w-6xl px-5 py-10">
      <AdminHeader email={email} title="Import / Export" awaiting={awaiting} />
      {imported.added !== undefined && !actionData ? (
        <Notice>
          Import complete: {imported.added} added, {imported.updated ?? 0} updated.
        </Notice>
      ) : null}
      <section aria-labelledby="export-heading" className={`${card} mt-8`}>
        <h2 id="export-heading" className="text-xl font-semibold">
          Export
        </h2>
        <p className="mt-1 text-slate-300">CSV files for a spreadsheet or a backup.</p>
        <div className="mt-4 flex flex-wrap gap-3">
          <a href="/admin/export/domains.csv" download className={secondaryButton}>
            Download portfolio (CSV)
          </a>
          <a href="/admin/export/inquiries.csv" download className={secondaryButton}>
            Download inquiries (CSV)
          </a>
        </div>
      </section>
      <section aria-labelledby="import-heading" className={`${card} mt-8`}>
        <h2 id="import-heading" className="text-xl font-semibold">
          Import
        </h2>
        <p className="mt-1 text-slate-300">
          One domain per line: <code>domain, price, tracking id, owner email</code> (a header line is optional). Listed
          domains are updated, new ones added. If any line has a problem, nothing is imported and every problem is
          listed.
        </p>
        <p className="mt-1 text-sm text-slate-300">
          An empty owner email keeps a listed domain&apos;s current one; write <code>{CLEAR_OWNER_EMAIL}</code> to
          remove it. With a header line, the columns <code>categories</code>, <code>pitch</code> and{" "}
          <code>buy_now_price</code> (in dollars; empty for none) are read too, and a file without one of them keeps
          what is set. Save the file as CSV UTF-8 with commas; an exported file imports back as it is.
        </p>
        <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="import-file" className="text-sm font-medium">
              CSV file
            </label>
            <input
              id="import-file"
              name="file"
              type="file"
              accept=".csv,text/csv"
              required
              className={`${fieldClass} mt-1 w-80`}
            />
          </div>
          <button type="submit" className={primaryButton} disabled={busy}>
            {busy ? "Importing..." : "Import"}
          </button>
        </Form>
        {actionData ? <ImportErrors failure={actionData} /> : null}
      </section>
    </main>
  );
}

function ImportErrors({ failure }: { failure: ImportFailure }) {
  const rowErrors = failure.errors.filter((error) => error.line > 0);
  return (
    <div className="mt-6">
      <ErrorAlert>
        Nothing was imported{failure.fileName ? ` from ${failure.fileName}` : ""}:{" "}
        {rowErrors.length > 0
          ? `${rowErrors.length + failure.moreErrors} line(s) need fixing.`
          : failure.errors[0]?.message}
      </ErrorAlert>
      {rowErrors.length > 0 ? (
        <table className="mt-4 w-full text-left text-sm">
          <caption className="sr-only">Problems in the file</caption>
          <thead className="text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                Line
              </th>
              <th scope="col" className="py-2 font-medium">
                Problem
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-800">
            {rowErrors.map((error) => (
              <tr key={`${error.line}-${error.message}`}>
                <td className="py-2 pr-4">{error.line}</td>
                <td className="py-2">{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {failure.moreErrors > 0 ? <p className="mt-2 text-slate-300">...and {failure.moreErrors} more.</p> : null}
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Import / Export | ${loaderData?.siteName ?? ""}` },
    { name: "robots", content: "noindex, nofollow" },
  ];
}
