import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { imageEnv, runtimeInstructions } from "../helpers/dockerfile.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Service {
  build?: unknown;
  environment?: Record<string, string>;
  volumes?: (string | { type?: string; source?: string; target: string; read_only?: boolean })[];
}
interface Mount {
  /** The named volume, or undefined for an anonymous one (a bind mount's source is a host path). */
  source?: string;
  target: string;
  readOnly: boolean;
}

const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};
const named = new Set(Object.keys(compose.volumes ?? {}));

function mounts(service: Service): Mount[] {
  return (service.volumes ?? []).map((v) => {
    if (typeof v !== "string") return { source: v.source, target: v.target, readOnly: v.read_only === true };
    const parts = v.split(":");
    return parts.length === 1
      ? { target: parts[0]!, readOnly: false }
      : { source: parts[0], target: parts[1]!, readOnly: parts[2] === "ro" };
  });
}

/** The mount that holds `path` in the service's container (the deepest whose target contains it). */
function mountOf(service: Service, path: string): Mount | undefined {
  return mounts(service)
    .filter((m) => path === m.target || path.startsWith(`${m.target}/`))
    .sort((a, b) => b.target.length - a.target.length)[0];
}

/** A setting as the container sees it: the service's environment over the image's. */
function setting(service: Service, key: string): string | undefined {
  return service.environment?.[key] ?? imageEnv()[key];
}

const app = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
const byRole = (role: string) => app.find(([, s]) => s.environment?.ROLE === role)?.[1];

describe("docker-compose.yml keeps what must survive `down` / `up` on named volumes", () => {
  it("has a web and a worker service built from the image", () => {
    expect(byRole("web")).toBeDefined();
    expect(byRole("worker")).toBeDefined();
  });

  it("the database's files", () => {
    const mount = mountOf(compose.services.postgres!, "/var/lib/postgresql/data");
    expect(mount?.source && named.has(mount.source)).toBe(true);
  });

  it("the web process's DATA_DIR (its delivery journal)", () => {
    const web = byRole("web")!;
    const mount = mountOf(web, setting(web, "DATA_DIR")!);
    expect(mount, "DATA_DIR on an anonymous volume is lost on down/up").toMatchObject({ readOnly: false });
    expect(mount!.source && named.has(mount!.source)).toBe(true);
  });

  it("the App's credentials: the setup flow's ENV_FILE, on one named volume every app service reads, writable by the web process", () => {
    const sources = app.map(([name, service]) => {
      const file = setting(service, "ENV_FILE");
      expect(file, name).toBeDefined();
      const mount = mountOf(service, dirname(file!));
      expect(mount?.source && named.has(mount.source), `${name}: ENV_FILE ${file} on a named volume`).toBe(true);
      if (service === byRole("web")) expect(mount!.readOnly).toBe(false);
      return `${mount!.source}:${file!.slice(mount!.target.length)}`;
    });
    expect(new Set(sources).size).toBe(1); // the same file, wherever each mounts it
  });

  it("a worker's DATA_DIR is its own: `--scale worker=2` never shares workspaces between containers", () => {
    const worker = byRole("worker")!;
    const mount = mountOf(worker, setting(worker, "DATA_DIR")!);
    expect(mount?.source === undefined || !named.has(mount.source)).toBe(true);
  });

  it("every named volume an app container mounts starts owned by the image's user (its folder is made and handed over in the image)", () => {
    const instructions = runtimeInstructions();
    const user = instructions
      .findLast((l) => /^USER\s/i.test(l))!
      .replace(/^USER\s+/i, "")
      .split(":")[0]!;
    const handedOver = instructions.filter((l) => new RegExp(`^RUN\\s.*chown\\s+(-R\\s+)?${user}\\b`).test(l));
    for (const [, service] of app)
      for (const mount of mounts(service).filter((m) => m.source && named.has(m.source))) {
        expect(
          handedOver.some((l) => new RegExp(`mkdir -p [^&]*${mount.target}\\b`).test(l) && l.includes(mount.target)),
          mount.target,
        ).toBe(true);
      }
  });
});
