import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

function files(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      // An installed package's own dependencies live beside it, never inside.
      if (entry.name !== 'node_modules') out.push(...files(dir, relative));
    } else if (entry.isFile()) {
      out.push(relative);
    }
  }
  return out.sort();
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** A ustar header; names past 100 bytes go into the 155-byte prefix field. */
function header(name: string, size: number, mode: number): Buffer {
  const block = Buffer.alloc(512);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', name.length - 1 - 0);
    let split = cut;
    while (split > 0 && (Buffer.byteLength(name.slice(split + 1)) > 100 || Buffer.byteLength(name.slice(0, split)) > 155)) {
      split = name.lastIndexOf('/', split - 1);
    }
    if (split <= 0) throw new Error(`path too long to pack: ${name}`);
    prefix = name.slice(0, split);
    base = name.slice(split + 1);
  }
  block.write(base, 0, 100);
  block.write(octal(mode, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(499162500, 12), 136); // a fixed mtime (1985, as npm uses): same files, same tarball
  block.write('        ', 148);
  block.write('0', 156);
  block.write('ustar\0', 257);
  block.write('00', 263);
  block.write(prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

export interface Tarball {
  file: string;
  integrity: string;
  shasum: string;
}

/**
 * Pack an installed package folder as npm would publish it: every file under
 * "package/" in a gzipped tar. The folder already holds only what its
 * author published, so no "files" list needs applying again.
 */
export function packDir(dir: string, target: string): Tarball {
  const chunks: Buffer[] = [];
  for (const name of files(dir)) {
    const data = readFileSync(path.join(dir, name));
    const mode = lstatSync(path.join(dir, name)).mode & 0o111 ? 0o755 : 0o644;
    chunks.push(header(`package/${name}`, data.length, mode), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  chunks.push(Buffer.alloc(1024));
  const gz = gzipSync(Buffer.concat(chunks), { level: 1 });
  writeFileSync(target, gz);
  return {
    file: target,
    integrity: `sha512-${createHash('sha512').update(gz).digest('base64')}`,
    shasum: createHash('sha1').update(gz).digest('hex'),
  };
}
