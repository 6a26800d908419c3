// What a reader sees of a page, for "the page says ..." checks (integration and in-process tests alike).

/** HTML text with tags removed and entities for quotes decoded, for "the page says ..." checks. */
export function visibleText(html: string): string {
  return (
    html
      // A domain name's labels, written one span each (app/components/domain-name.tsx), read as one word.
      .replace(/<\/span><wbr\s*\/?><span class="whitespace-nowrap">/g, "")
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&")
      .replace(/\s+/g, " ")
  );
}

/**
 * The HTML without its spans and word-break points: a domain name (app/components/domain-name.tsx) is
 * written one span per label, so that it breaks only at its dots; this joins it back (`>velora.com</a>`).
 */
export function withoutSpans(html: string): string {
  return html.replace(/<\/?span\b[^>]*>|<wbr\s*\/?>/g, "");
}
