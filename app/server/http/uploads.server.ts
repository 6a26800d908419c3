import type { IncomingMessage } from "node:http";
import { getAdminUser } from "../admin/session.server";
import { isUploadPath } from "./upload-path.server";

/**
 * Whether a request may send up to MAX_UPLOAD_BYTES: a post to the import from a signed-in admin.
 * Asked before any of the body is read; everyone else gets MAX_BODY_BYTES.
 */
export async function mayUpload(req: IncomingMessage): Promise<boolean> {
  if (!isUploadPath(req.url ?? "")) return false;
  const cookie = req.headers.cookie;
  if (!cookie) return false;
  const user = await getAdminUser(new Request("http://local/", { headers: { Cookie: cookie } }));
  return user !== null;
}
