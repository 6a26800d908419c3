// The admin's Import / Export form, in process: `text` uploaded as the portfolio CSV (a multipart post the
// route reads itself), as a signed-in admin (`cookie`).
import { render, type Page } from "./document";

export function uploadPortfolioCsv(cookie: string, text: string, name = "portfolio.csv"): Promise<Page> {
  const form = new FormData();
  form.set("file", new Blob([text], { type: "text/csv" }), name);
  return render("/admin/portfolio", { cookie, form });
}
