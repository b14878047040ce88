import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './cli.js';

// A stand-in for the npm registry, for tests that install safe-run as a user would
// (`npm install -g safe-run@VERSION`) on a machine without network: it serves safe-run's `npm pack`
// tarball, and the packages it depends on as package-lock.json pins them, from the tarballs npm's
// cache holds since `npm ci` (found by their integrity). npm reaches it through its own setting,
// npm_config_registry, as it reaches a company's registry.

interface Version {
  manifest: Record<string, unknown>;
  file: string;
}

export interface LocalRegistry {
  url: string;
  close(): Promise<void>;
}

const MANIFEST_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'engines',
  'bin',
  'os',
  'cpu',
];

function npmCacheDir(): string {
  return process.env.npm_config_cache ?? path.join(os.homedir(), '.npm');
}

// Where npm's cache keeps the content of a tarball with this integrity (cacache's layout).
function cachedTarball(integrity: string): string {
  const [algorithm, digest] = integrity.split(' ')[0]!.split('-');
  const hex = Buffer.from(digest!, 'base64').toString('hex');
  return path.join(
    npmCacheDir(),
    '_cacache',
    'content-v2',
    algorithm!,
    hex.slice(0, 2),
    hex.slice(2, 4),
    hex.slice(4),
  );
}

function pick(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    MANIFEST_FIELDS.filter((key) => entry[key] !== undefined).map((key) => [key, entry[key]]),
  );
}

// Every version of every package the lockfile pins for production, and safe-run from `tarball`.
function catalogue(tarball: string): Map<string, Map<string, Version>> {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const packages = new Map<string, Map<string, Version>>();
  const add = (name: string, version: string, manifest: Record<string, unknown>, file: string) => {
    if (!packages.has(name)) packages.set(name, new Map());
    packages.get(name)!.set(version, { manifest: { name, version, ...manifest }, file });
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === '' || entry.dev === true || typeof entry.integrity !== 'string') continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    add(
      name,
      entry.version as string,
      { ...pick(entry), integrity: entry.integrity },
      cachedTarball(entry.integrity),
    );
  }
  const own = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const integrity = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
  add(own.name as string, own.version as string, { ...pick(own), integrity }, tarball);
  return packages;
}

function packument(url: string, name: string, versions: Map<string, Version>): object {
  const entries = [...versions.values()].map(({ manifest }) => {
    const { integrity, ...rest } = manifest;
    const tarball = `${url}/-/tarball/${encodeURIComponent(name)}/${manifest.version}.tgz`;
    return [manifest.version, { ...rest, dist: { tarball, integrity } }];
  });
  const latest = entries.at(-1)![0] as string;
  return { name, 'dist-tags': { latest }, versions: Object.fromEntries(entries) };
}

export async function startLocalRegistry(tarball: string): Promise<LocalRegistry> {
  const packages = catalogue(tarball);
  let url = '';
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const download = /^\/-\/tarball\/(.+)\/([^/]+)\.tgz$/.exec(pathname);
    const found = download ? packages.get(download[1]!)?.get(download[2]!) : packages.get(pathname.slice(1));
    if (!found) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    } else if (download) {
      const file = (found as Version).file;
      if (!fs.existsSync(file)) response.writeHead(404).end();
      else
        fs.createReadStream(file).pipe(
          response.writeHead(200, { 'content-type': 'application/octet-stream' }),
        );
    } else {
      const body = JSON.stringify(packument(url, pathname.slice(1), found as Map<string, Version>));
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// This checkout packed (`npm pack`, into `dir`) and served by a stand-in registry.
export async function serveThisCheckout(dir: string): Promise<LocalRegistry> {
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  return startLocalRegistry(path.join(dir, packed.stdout.trim().split('\n').at(-1)!));
}
