import { Fragment } from "react";

/**
 * A small, safe Markdown subset for admin-written pages: "## " and "### " headings, "- " lists,
 * paragraphs (blank line between), **bold**, and [links](https://...) to http(s) and mailto only.
 * Everything is React text: HTML in the source is shown as written, never run.
 */
export function Markdown({ source }: { source: string }) {
  const blocks = source
    .replace(/\r\n/g, "\n")
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean);
  return (
    <>
      {blocks.map((block, index) => {
        const heading = /^(#{1,3})\s+(.*)$/s.exec(block);
        if (heading) {
          const Tag = heading[1]!.length === 3 ? "h3" : "h2";
          return (
            <Tag key={index} className={Tag === "h2" ? "mt-8 text-xl font-semibold" : "mt-6 text-lg font-semibold"}>
              <Inline text={heading[2]!} />
            </Tag>
          );
        }
        const lines = block.split("\n");
        if (lines.every((line) => /^[-*]\s+/.test(line))) {
          return (
            <ul key={index} className="mt-4 list-disc space-y-1 pl-6">
              {lines.map((line, item) => (
                <li key={item}>
                  <Inline text={line.replace(/^[-*]\s+/, "")} />
                </li>
              ))}
            </ul>
          );
        }
        return (
          <p key={index} className="mt-4 leading-relaxed">
            {lines.map((line, n) => (
              <Fragment key={n}>
                {n > 0 ? <br /> : null}
                <Inline text={line} />
              </Fragment>
            ))}
          </p>
        );
      })}
    </>
  );
}

const INLINE = /\*\*(.+?)\*\*|\[([^\]]+)\]\(((?:https?:\/\/|mailto:)[^\s)]+)\)/g;

function Inline({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > from) parts.push(text.slice(from, match.index));
    if (match[1] !== undefined) parts.push(<strong key={match.index}>{match[1]}</strong>);
    else
      parts.push(
        <a
          key={match.index}
          href={match[3]}
          className="text-blue-300 underline underline-offset-4"
          rel="nofollow noopener"
        >
          {match[2]}
        </a>,
      );
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return <>{parts}</>;
}
