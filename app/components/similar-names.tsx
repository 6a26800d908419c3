import type { SimilarName } from "../lib/seo";
import { card } from "./ui";

/** "More names like this" on a domain page, a lander and a sold name's page: links only, best first. */
export function SimilarNames({ names }: { names: SimilarName[] }) {
  if (names.length === 0) return null;
  return (
    <section aria-labelledby="similar-heading" className={`${card} mt-6`}>
      <h2 id="similar-heading" className="text-lg font-semibold">
        More names like this
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {names.map((similar) => (
          <li key={similar.path} className="min-w-0">
            <a className="block rounded-xl border border-slate-700 px-4 py-3 hover:border-blue-400" href={similar.path}>
              <span className="block break-words font-semibold">{similar.name}</span>
              <span className="block text-sm text-blue-300">{similar.price}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
