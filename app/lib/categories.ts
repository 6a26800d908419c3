// Category names as the admin types them (the Add Domain dialog, the edit form, the CSV's `categories`
// column): browser-safe, shared by the forms and the server.

export const MAX_CATEGORIES_PER_DOMAIN = 10;
export const MAX_CATEGORY_NAME = 40;
export const CATEGORIES_HELP = `Separate categories with | (for example: Tech | Short names). At most ${MAX_CATEGORIES_PER_DOMAIN}.`;

export interface CategoryName {
  slug: string;
  name: string;
}

/** "Food & Drink" -> "food-drink": the category's address, /category/{slug}. */
export function categorySlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** "Tech | Short names" -> the categories, each once (by slug), or the reason the text cannot be read. */
export function parseCategoryList(text: string): CategoryName[] | { error: string } {
  const seen = new Set<string>();
  const categories: CategoryName[] = [];
  for (const part of text.split("|")) {
    const name = part.replace(/\s+/g, " ").trim();
    if (!name) continue;
    if (name.length > MAX_CATEGORY_NAME)
      return { error: `Category "${name.slice(0, 20)}..." is longer than ${MAX_CATEGORY_NAME} characters` };
    const slug = categorySlug(name);
    if (!slug) return { error: `Category "${name}" needs at least one letter or digit` };
    if (seen.has(slug)) continue;
    seen.add(slug);
    categories.push({ slug, name });
  }
  if (categories.length > MAX_CATEGORIES_PER_DOMAIN)
    return { error: `At most ${MAX_CATEGORIES_PER_DOMAIN} categories per domain` };
  return categories;
}

/** The categories as the forms and the CSV write them. */
export function formatCategoryList(names: string[]): string {
  return names.join(" | ");
}

/** A category's page. */
export function categoryPath(slug: string): string {
  return `/category/${slug}`;
}

/** A name's pitch: plain text, one paragraph. */
export const MAX_PITCH_LENGTH = 300;
export const PITCH_HELP = `A short description for buyers, plain text, up to ${MAX_PITCH_LENGTH} characters.`;

/** The pitch as stored: whitespace runs made one space, control characters taken out; null when empty. */
export function cleanPitch(text: string): string | null {
  const pitch = text
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return pitch === "" ? null : pitch;
}
