import type { AppSetup } from "../github/read-app-setup.js";
import { fail, pass, type DoctorCheck } from "./doctor-check.js";
import type { WantedAccess } from "./read-wanted-access.js";

const RANK: Record<string, number> = { read: 1, write: 2, admin: 3 };

/**
 * One line per installation: its granted permissions and subscribed events against app.yml's. An
 * installation lacking one was installed before the App asked for it (the owner must accept the new
 * permissions), or the App's settings lack it.
 */
export function checkInstallations(
  installations: AppSetup["installations"],
  wanted: WantedAccess,
  app: { htmlUrl: string; settingsUrl: string },
): DoctorCheck[] {
  if (installations.length === 0)
    return [
      fail(
        "installations",
        "the App is installed nowhere",
        `install it on a repository: ${app.htmlUrl}/installations/new`,
      ),
    ];
  return installations.map((installation) => {
    const name = `installation ${installation.account}`;
    const missing = Object.entries(wanted.permissions)
      .filter(([key, level]) => (RANK[installation.permissions[key] ?? ""] ?? 0) < (RANK[level] ?? 1))
      .map(([key, level]) => `${key}: ${level} (has ${installation.permissions[key] ?? "none"})`);
    const events = wanted.events.filter((event) => !installation.events.includes(event));
    if (missing.length === 0 && events.length === 0)
      return pass(name, `permissions and events as app.yml asks (${wanted.events.join(", ")})`);
    const lacks = [
      ...(missing.length ? [`permissions ${missing.join(", ")}`] : []),
      ...(events.length ? [`events ${events.join(", ")}`] : []),
    ].join("; ");
    return fail(
      name,
      `lacks ${lacks}`,
      `grant them under Permissions & events at ${app.settingsUrl}, then have ${installation.account} accept the new permissions (Settings → Applications → no-mistakes)`,
    );
  });
}
