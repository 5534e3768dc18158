import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** What the App needs (app.yml's default_permissions and default_events). */
export interface WantedAccess {
  permissions: Record<string, string>;
  events: string[];
}

/** Reads the manifest the App was registered from (app.yml at the repository root). */
export function readWantedAccess(path: string | URL = new URL("../../app.yml", import.meta.url)): WantedAccess {
  const manifest = parse(readFileSync(path, "utf8")) as {
    default_permissions?: Record<string, string>;
    default_events?: string[];
  };
  return { permissions: manifest.default_permissions ?? {}, events: manifest.default_events ?? [] };
}
