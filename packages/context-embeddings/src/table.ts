/**
 * The embedding table's file: a 16-byte header (`TSE1`, rows, dimensions, 0 as little-endian
 * uint32), one float32 scale per row, then rows × dimensions int8 values. Row r's vector is
 * its int8 values times its scale; row r is vocabulary entry r.
 */
export interface EmbeddingTable {
  rows: number;
  dimensions: number;
  scales: Float32Array;
  values: Int8Array;
}

const MAGIC = 'TSE1';
const HEADER_BYTES = 16;

export function encodeTable(table: EmbeddingTable): Uint8Array {
  const { rows, dimensions } = table;
  const bytes = new Uint8Array(HEADER_BYTES + rows * 4 + rows * dimensions);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = MAGIC.charCodeAt(i);
  view.setUint32(4, rows, true);
  view.setUint32(8, dimensions, true);
  for (let r = 0; r < rows; r++) view.setFloat32(HEADER_BYTES + r * 4, table.scales[r]!, true);
  bytes.set(new Uint8Array(table.values.buffer, table.values.byteOffset, rows * dimensions), HEADER_BYTES + rows * 4);
  return bytes;
}

export function decodeTable(bytes: Uint8Array): EmbeddingTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (bytes.byteLength < HEADER_BYTES || magic !== MAGIC)
    throw new Error(`The embedding table does not start with ${MAGIC}; reinstall @toolshed/context-embeddings.`);
  const rows = view.getUint32(4, true);
  const dimensions = view.getUint32(8, true);
  const expected = HEADER_BYTES + rows * 4 + rows * dimensions;
  if (bytes.byteLength !== expected)
    throw new Error(
      `The embedding table is ${bytes.byteLength} bytes, not the ${expected} its header promises; reinstall @toolshed/context-embeddings.`,
    );
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) scales[r] = view.getFloat32(HEADER_BYTES + r * 4, true);
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + HEADER_BYTES + rows * 4, rows * dimensions);
  return { rows, dimensions, scales, values };
}
