// The files the pages load: our stylesheet, script and icon (public/), and Swagger UI's (swagger-ui-dist), each
// served at a path carrying its content hash, so browsers keep them for good and a new version is a new path.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { contentTag, encodeRepresentation, type Representation } from '../publishing/representation.js';
import type { AssetPaths } from './layout.js';

export const ASSETS_PREFIX = '/assets/';

/** Cached for a year and never revalidated: the path changes with the content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Asset {
  path: string;
  contentType: string;
  body: Buffer;
  encoded?: Promise<Representation>;
}

/** The folder holding package.json, from the source (tests) or the compiled code (dist/) alike. */
function packageRoot(): string {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the site code');
    dir = parent;
  }
  return dir;
}

const SOURCES = {
  css: { file: 'public/site.css', contentType: 'text/css; charset=utf-8' },
  js: { file: 'public/site.js', contentType: 'text/javascript; charset=utf-8' },
  icon: { file: 'public/icon.svg', contentType: 'image/svg+xml' },
  docsJs: { file: 'public/docs.js', contentType: 'text/javascript; charset=utf-8' },
  docsCss: { file: 'public/docs.css', contentType: 'text/css; charset=utf-8' },
  swaggerCss: { file: 'swagger-ui.css', contentType: 'text/css; charset=utf-8', swagger: true },
  swaggerJs: { file: 'swagger-ui-bundle.js', contentType: 'text/javascript; charset=utf-8', swagger: true },
} as const;

export type AssetName = keyof typeof SOURCES;

export class Assets {
  private readonly byPath = new Map<string, Asset>();
  readonly paths: Record<AssetName, string>;

  constructor() {
    const root = packageRoot();
    const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const paths: Partial<Record<AssetName, string>> = {};
    for (const [name, source] of Object.entries(SOURCES) as [AssetName, (typeof SOURCES)[AssetName]][]) {
      const body = readFileSync('swagger' in source ? join(swagger, source.file) : join(root, source.file));
      const file = source.file.split('/').at(-1)!;
      const dot = file.lastIndexOf('.');
      const path = `${ASSETS_PREFIX}${file.slice(0, dot)}.${contentTag(body).slice(0, 12)}${file.slice(dot)}`;
      this.byPath.set(path, { path, contentType: source.contentType, body });
      paths[name] = path;
    }
    this.paths = paths as Record<AssetName, string>;
  }

  /** What the pages link to. */
  get site(): AssetPaths {
    return { css: this.paths.css, js: this.paths.js, icon: this.paths.icon };
  }

  /** The asset at this path, compressed when first asked for; undefined for any other path. */
  get(path: string): Promise<Representation> | undefined {
    const asset = this.byPath.get(path);
    if (!asset) return undefined;
    asset.encoded ??= encodeRepresentation(asset.body, {
      contentType: asset.contentType,
      cacheControl: IMMUTABLE,
      lastModified: null,
      effort: 'best',
    });
    return asset.encoded;
  }
}
