// Content parts of an outcome (images, audio, files) drawn as what they are: an <img>, an
// <audio> player, a download link. The bytes go into data: URLs built here, so nothing is
// fetched, and base64 is never shown as text.
import { el } from './form.js';

/** @typedef {import('@toolshed/core').ContentPart} ContentPart */
/** @typedef {import('@toolshed/core').InlinePart} InlinePart */
/** @typedef {import('@toolshed/core').TextFilePart} TextFilePart */
/** @typedef {import('@toolshed/core').LinkedPart} LinkedPart */

const MIME = /^[a-z0-9][\w.+-]{0,126}\/[\w.+-]{1,127}$/i;

/**
 * The decoded size of base64 text, from its length.
 * @param {string} data
 */
function base64Bytes(data) {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** @param {number} bytes */
export function describeBytes(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A MIME type safe to put in a data: URL; anything else is downloaded as plain bytes.
 * @param {unknown} mimeType
 */
function safeMime(mimeType) {
  return typeof mimeType === 'string' && MIME.test(mimeType) ? mimeType : 'application/octet-stream';
}

/**
 * @param {string} href
 * @param {string} name
 * @param {string} mimeType
 * @param {number} bytes
 */
function download(href, name, mimeType, bytes) {
  return el('a', { href, download: name, 'data-part-download': mimeType, text: `Download ${name} (${mimeType}, ${describeBytes(bytes)})` });
}

/**
 * @param {InlinePart} part
 * @param {string} name
 */
function inline(part, name) {
  const mimeType = safeMime(part.mimeType);
  const url = `data:${mimeType};base64,${part.data}`;
  const bytes = base64Bytes(part.data);
  const about = el('figcaption', { class: 'hint', text: `${name}: ${mimeType}, ${describeBytes(bytes)}` });
  if (part.type === 'image' && mimeType.startsWith('image/'))
    return el('figure', {}, el('img', { src: url, alt: name, 'data-part-image': mimeType }), about);
  if (part.type === 'audio' && mimeType.startsWith('audio/'))
    return el('figure', {}, el('audio', { src: url, controls: true, 'data-part-audio': mimeType }), about);
  return download(url, name, mimeType, bytes);
}

/**
 * @param {TextFilePart} part
 * @param {string} name
 */
function textFile(part, name) {
  const mimeType = safeMime(part.mimeType);
  return download(
    `data:${mimeType};charset=utf-8,${encodeURIComponent(part.text)}`,
    name,
    mimeType,
    new TextEncoder().encode(part.text).length,
  );
}

/**
 * A part by reference: its address, a link only for http(s), never loaded by the page.
 * @param {LinkedPart} part
 * @param {string} name
 */
function linked(part, name) {
  const what = `${name} (${part.mimeType ?? 'type not given'})`;
  const web = /^https?:\/\//i.test(part.uri);
  return el(
    'p',
    { 'data-part-link': part.uri },
    `${what} at `,
    web ? el('a', { href: part.uri, rel: 'noreferrer noopener', target: '_blank', text: part.uri }) : el('code', { text: part.uri }),
  );
}

/**
 * One part as an element: its shape is told by its source field (data, text or uri alone).
 * @param {ContentPart} part
 * @param {number} index
 */
export function partView(part, index) {
  const name = typeof part.name === 'string' && part.name !== '' ? part.name : `${part.type}-${index + 1}`;
  if ('data' in part) return inline(part, name);
  if ('text' in part) return textFile(part, name);
  return linked(part, name);
}

/**
 * JSON for reading, with the bytes of every part replaced by their size wherever they appear:
 * as a part's data, or inside a data: URL as a provider's message carries an image.
 * @param {unknown} value
 * @param {ContentPart[]} parts
 */
export function withoutBytes(value, parts) {
  const bytes = new Set(parts.flatMap((part) => ('data' in part ? [part.data] : [])));
  return JSON.stringify(
    value,
    (_key, item) => {
      if (typeof item !== 'string') return item;
      const data = item.startsWith('data:') ? item.slice(item.indexOf(',') + 1) : item;
      return bytes.has(data) ? `[${describeBytes(base64Bytes(data))} of base64, shown above]` : item;
    },
    2,
  );
}
