import { Link } from "react-router";
import { displayDomainName, domainPagePath } from "../../lib/domain-name";

/** "{buyer} about {domain}", the domain linked to its page: an inquiry card's heading text. */
export function InquiryAbout({ name, domainName }: { name: string; domainName: string }) {
  return (
    <>
      {name} about{" "}
      <Link to={domainPagePath(domainName)} className="text-blue-300 hover:underline">
        {displayDomainName(domainName)}
      </Link>
    </>
  );
}

// Literal class names, so Tailwind finds them.
const COLUMNS = { 5: "lg:grid-cols-5", 6: "lg:grid-cols-6" } as const;

/**
 * An inquiry card's facts (label and value, in a grid of up to `columns` on a wide screen) and the
 * buyer's message as they wrote it: the admin's inbox and the owner's desk.
 */
export function InquiryFacts({
  details,
  message,
  columns,
}: {
  details: Array<[string, React.ReactNode]>;
  message: string;
  columns: keyof typeof COLUMNS;
}) {
  return (
    <>
      <dl className={`mt-3 grid gap-x-6 gap-y-1 text-sm wrap-anywhere sm:grid-cols-3 ${COLUMNS[columns]}`}>
        {details.map(([label, value]) => (
          <div key={label}>
            <dt className="text-slate-300">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 whitespace-pre-wrap wrap-anywhere rounded-lg bg-slate-950 p-3 text-slate-100">{message}</p>
    </>
  );
}
