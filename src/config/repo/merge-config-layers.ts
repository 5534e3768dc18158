/**
 * Config files merged, farthest first and the nearer on top: mappings merge key by key, lists and
 * single values of the nearer file replace the farther one's. `provenance` names, for every setting
 * set (a leaf key path such as `review.max_comments`), the layer it came from.
 */
export function mergeConfigLayers(layers: readonly { source: string; settings: Record<string, unknown> }[]): {
  merged: Record<string, unknown>;
  provenance: Record<string, string>;
} {
  const merged: Record<string, unknown> = {};
  const provenance: Record<string, string> = {};
  for (const layer of layers) mergeInto(merged, layer.settings, [], layer.source, provenance);
  return { merged, provenance };
}

function mergeInto(
  target: Record<string, unknown>,
  from: Record<string, unknown>,
  path: string[],
  source: string,
  provenance: Record<string, string>,
): void {
  for (const [key, value] of Object.entries(from)) {
    const at = [...path, key];
    const here = target[key];
    if (isRecord(value)) {
      if (!isRecord(here)) {
        // a mapping replaces a value of another shape; what was set under the old one no longer counts
        forget(provenance, at);
        target[key] = {};
      }
      mergeInto(target[key] as Record<string, unknown>, value, at, source, provenance);
    } else {
      forget(provenance, at);
      target[key] = structuredClone(value);
      provenance[at.join(".")] = source;
    }
  }
}

function forget(provenance: Record<string, string>, path: string[]): void {
  const key = path.join(".");
  for (const k of Object.keys(provenance)) if (k === key || k.startsWith(`${key}.`)) delete provenance[k];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
