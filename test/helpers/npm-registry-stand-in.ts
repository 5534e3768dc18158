import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { tempDir } from "./temp-dir.js";

/** A package the stand-in serves: its files (package.json is made from name and version). */
export interface StandInPackage {
  name: string;
  version: string;
  files: Record<string, string>;
}

export interface NpmRegistryStandIn {
  /** `http://127.0.0.1:<port>`: what `npm_config_registry` points at. */
  url: string;
  port: number;
  /** Every path asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Enough of the npm registry on 127.0.0.1 for `npm install`/`npm ci`: a packument per package and its
 * tarball, with integrity, so setup tests install for real with no outside network.
 */
export async function startNpmRegistryStandIn(packages: readonly StandInPackage[]): Promise<NpmRegistryStandIn> {
  const tarballs = new Map<string, Buffer>();
  for (const pkg of packages) tarballs.set(`${pkg.name}-${pkg.version}.tgz`, packTarball(pkg));
  const requests: string[] = [];
  let base = "";
  const manifest = (pkg: StandInPackage) => {
    const data = tarballs.get(`${pkg.name}-${pkg.version}.tgz`)!;
    return {
      name: pkg.name,
      version: pkg.version,
      dist: {
        tarball: `${base}/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`,
        shasum: createHash("sha1").update(data).digest("hex"),
        integrity: `sha512-${createHash("sha512").update(data).digest("base64")}`,
      },
    };
  };
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    requests.push(path);
    const tarball = /^\/(.+)\/-\/(.+\.tgz)$/.exec(path);
    if (tarball && tarballs.has(tarball[2]!)) {
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(tarballs.get(tarball[2]!));
      return;
    }
    const versions = packages.filter((p) => `/${p.name}` === path);
    if (versions.length === 0) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const manifests = Object.fromEntries(versions.map((pkg) => [pkg.version, manifest(pkg)]));
    const latest = versions.at(-1)!.version;
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ name: versions[0]!.name, "dist-tags": { latest }, versions: manifests }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function packTarball(pkg: StandInPackage): Buffer {
  const root = tempDir("nm-npm-pack-");
  const dir = join(root, "package");
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: pkg.name, version: pkg.version, main: "index.js" }));
  for (const [path, content] of Object.entries(pkg.files)) writeFileSync(join(dir, path), content);
  const file = join(root, "pkg.tgz");
  execFileSync("tar", ["-czf", file, "-C", root, "package"]);
  return readFileSync(file);
}
