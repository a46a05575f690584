import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LocalRegistry } from './registry.js';

export interface PackedPackage {
  /** The tarball file. */
  file: string;
  /** The folder it was packed from; its package.json is the version's manifest. */
  dir: string;
  integrity: string;
  shasum: string;
}

/**
 * Publish one tarball with the request npm publish makes (a PUT of the
 * package document with the tarball attached). One HTTP request instead of
 * one npm process per package keeps seeding a hundred packages quick.
 */
export async function publishTarball(registry: LocalRegistry, packed: PackedPackage): Promise<void> {
  const manifest = JSON.parse(readFileSync(path.join(packed.dir, 'package.json'), 'utf8')) as Record<string, unknown> & {
    name: string;
    version: string;
  };
  const { name, version } = manifest;
  const tarballName = `${name}-${version}.tgz`;
  const data = readFileSync(packed.file);
  const body = {
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: {
      [version]: {
        ...manifest,
        _id: `${name}@${version}`,
        dist: { integrity: packed.integrity, shasum: packed.shasum, tarball: `${registry.url}/${name}/-/${tarballName}` },
      },
    },
    _attachments: { [tarballName]: { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length } },
  };
  const response = await fetch(`${registry.url}/${name.replace('/', '%2f')}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${registry.token}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`publishing ${name}@${version} failed: ${response.status} ${await response.text()}`);
}
