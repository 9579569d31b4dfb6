// Draws media/icon.png: a 128×128 blue hexagon with a white play glyph, written as PNG chunks by hand.
// Usage: node scripts/make-icon.mjs — only node:zlib (deflate) and node:fs; run again after changing the design.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

const SIZE = 128;
/** SUPERSAMPLE is the samples per pixel side, for anti-aliased edges. */
const SUPERSAMPLE = 4;
const BLUE = [0x32, 0x6c, 0xe5]; // Kubernetes blue
const WHITE = [0xff, 0xff, 0xff];

/** hexagon returns the corners of a pointy-top regular hexagon. */
function hexagon(cx, cy, radius) {
  return Array.from({ length: 6 }, (_, k) => {
    const angle = ((-90 + 60 * k) * Math.PI) / 180;
    return [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)];
  });
}

/** inside says whether a point lies in a convex polygon whose corners go clockwise (screen coordinates). */
function inside(polygon, x, y) {
  for (let i = 0; i < polygon.length; i++) {
    const [ax, ay] = polygon[i];
    const [bx, by] = polygon[(i + 1) % polygon.length];
    if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0) return false;
  }
  return true;
}

const shield = hexagon(64, 64, 62);
// The play triangle's centroid sits at the hexagon's center, so it looks centred.
const play = [
  [50, 38],
  [94, 64],
  [50, 90],
];

/** coverage is the fraction of a pixel's samples inside a polygon. */
function coverage(polygon, px, py) {
  let hits = 0;
  for (let sy = 0; sy < SUPERSAMPLE; sy++) {
    for (let sx = 0; sx < SUPERSAMPLE; sx++) {
      if (inside(polygon, px + (sx + 0.5) / SUPERSAMPLE, py + (sy + 0.5) / SUPERSAMPLE)) hits++;
    }
  }
  return hits / (SUPERSAMPLE * SUPERSAMPLE);
}

/** pixels renders the icon as RGBA rows, each led by PNG filter type 0 (None). */
function pixels() {
  const rows = Buffer.alloc(SIZE * (1 + SIZE * 4));
  for (let y = 0; y < SIZE; y++) {
    const row = y * (1 + SIZE * 4);
    rows[row] = 0;
    for (let x = 0; x < SIZE; x++) {
      const alpha = coverage(shield, x, y);
      const glyph = coverage(play, x, y);
      const offset = row + 1 + x * 4;
      for (let c = 0; c < 3; c++) rows[offset + c] = Math.round(BLUE[c] * (1 - glyph) + WHITE[c] * glyph);
      rows[offset + 3] = Math.round(255 * alpha);
    }
  }
  return rows;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** crc32 is the CRC the PNG specification puts after each chunk's type and data. */
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** chunk frames one PNG chunk: length, type, data, CRC. */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0); // width
header.writeUInt32BE(SIZE, 4); // height
header[8] = 8; // bit depth
header[9] = 6; // color type: truecolor with alpha
header[10] = 0; // compression: deflate
header[11] = 0; // filter method: adaptive
header[12] = 0; // interlace: none

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(pixels(), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
mkdirSync('media', { recursive: true });
writeFileSync('media/icon.png', png);
console.log(`wrote media/icon.png (${png.length} bytes)`);
