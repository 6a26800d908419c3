import { csvResponse, exportInquiriesCsv } from "../server/admin/portfolio-csv.server";
import { requireAdmin } from "../server/admin/session.server";
import type { Route } from "./+types/admin.export.inquiries";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return csvResponse(exportInquiriesCsv(), `inquiries-${new Date().toISOString().slice(0, 10)}.csv`);
}
