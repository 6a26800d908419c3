// The home page's filter combinations the bench times (issue 24 item 5), on both engines at 100,000 names.
// Seeded names (db/seed-many.ts): half without digits, each in one of ten categories.
export const BROWSE_ROWS: Array<[label: string, path: string]> = [
  ["/?ext=io&min=1000&max=20000 (extension + price)", "/?ext=io&min=1000&max=20000"],
  ["/?len=12&nodigit=1&sort=price-asc", "/?len=12&nodigit=1&sort=price-asc"],
  ["/?cat=travel (a category)", "/?cat=travel"],
  ["/category/travel", "/category/travel"],
  ["/?q=nova&ext=com&max=30000&sort=price-desc", "/?q=nova&ext=com&max=30000&sort=price-desc"],
  ["/?nohyphen=1&sort=shortest", "/?nohyphen=1&sort=shortest"],
  ["/?cat=tech&min=20000&sort=name", "/?cat=tech&min=20000&sort=name"],
  ["/?ext=ai&sort=views", "/?ext=ai&sort=views"],
];
