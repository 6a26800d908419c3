// The portfolio CSV import is the only place that takes a multipart (and large) body. No imports:
// server.ts reads this outside the app build.
const UPLOAD_PATH = /^\/admin\/portfolio(?:\.data)?(?:\?|$)/;

export function isUploadPath(url: string): boolean {
  return UPLOAD_PATH.test(url);
}
