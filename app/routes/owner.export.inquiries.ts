import { csvResponse, exportInquiriesCsv } from "../server/admin/portfolio-csv.server";
import { requireOwner } from "../server/owners/owner-session.server";
import type { Route } from "./+types/owner.export.inquiries";

export async function loader({ request }: Route.LoaderArgs) {
  const owner = await requireOwner(request);
  return csvResponse(exportInquiriesCsv(owner.email), `inquiries-${new Date().toISOString().slice(0, 10)}.csv`);
}
