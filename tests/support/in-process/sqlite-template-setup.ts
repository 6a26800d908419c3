// globalSetup of the in-process project: the SQLite template every test file copies (./template.ts).
import { makeSqliteTemplate } from "./template";

export default function setup(): Promise<() => Promise<void>> {
  return makeSqliteTemplate();
}
