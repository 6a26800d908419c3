// globalSetup of the in-process-postgres project, after ../postgres-setup.ts started PostgreSQL: the template
// database every test file copies with CREATE DATABASE ... TEMPLATE (./template.ts).
import { makePostgresTemplate } from "./template";

export default function setup(): Promise<() => Promise<void>> {
  return makePostgresTemplate();
}
