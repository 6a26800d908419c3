/** A success message after a redirect; announced politely. */
export function Notice({ children }: { children: React.ReactNode }) {
  return (
    <p role="status" className="mt-6 rounded-lg border border-emerald-700 bg-emerald-950/60 px-4 py-3 text-emerald-100">
      {children}
    </p>
  );
}

/** An error the admin must see: the spec's "alert" texts, rendered inline. */
export function ErrorAlert({
  children,
  id,
  className = "",
}: {
  children: React.ReactNode;
  id?: string;
  className?: string;
}) {
  return (
    <p
      role="alert"
      id={id}
      className={`rounded-lg border border-red-700 bg-red-950/70 px-4 py-3 text-red-100 ${className}`}
    >
      {children}
    </p>
  );
}
