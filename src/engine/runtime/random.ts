// Seeded random source: the same seed gives the same pod names and tie breaks, every run.

/** Random is a small, fast, seeded generator (xoshiro128**), so runs are reproducible. */
export class Random {
  private s: Uint32Array;

  constructor(seed: number) {
    // splitmix32 spreads the seed over the four words of state.
    this.s = new Uint32Array(4);
    let x = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = (z ^ (z >>> 16)) >>> 0;
    }
  }

  /** state is the generator's place in its sequence; setState puts a generator there. */
  get state(): readonly number[] {
    return [...this.s];
  }

  setState(state: readonly number[]): void {
    if (state.length !== 4) throw new RangeError(`setState: a state is 4 words, got ${state.length}`);
    this.s.set(state);
  }

  /** nextUint32 returns the next 32 random bits. */
  nextUint32(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1]!, 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1]! << 9) >>> 0;
    s[2]! ^= s[0]!; s[3]! ^= s[1]!; s[1]! ^= s[2]!; s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = rotl(s[3]!, 11);
    return result;
  }

  /** float64 returns a uniform number in [0, 1), as rand.Float64 does for wait.Jitter. */
  float64(): number {
    return this.nextUint32() / 0x1_0000_0000;
  }

  /** intn returns a uniform integer in [0, n). */
  intn(n: number): number {
    if (n <= 0) throw new RangeError(`intn: n must be positive, got ${n}`);
    return Math.floor(this.float64() * n);
  }

  /** string returns n characters from Kubernetes' name alphabet, as utilrand.String does. */
  string(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += NAME_ALPHABET[this.intn(NAME_ALPHABET.length)];
    return out;
  }

  /** uuid returns a random version-4 UUID, as the API server gives metadata.uid. */
  uuid(): string {
    const a = this.nextUint32(), b = this.nextUint32(), c = this.nextUint32(), d = this.nextUint32();
    // The 128 bits as 32 hex digits, the version digit set to 4 and the variant's top bits to 10.
    const variant = HEX[((c >>> 28) & 0x3) | 0x8]!;
    // Joined, not concatenated: a joined string is one piece, where a concatenation keeps a tree of its pieces (four
    // times the memory of a uid kept by every object).
    return [hex8(a), '-', hex4(b >>> 16), '-4', hex4(b).slice(1), '-', variant, hex4(c >>> 16).slice(1), '-', hex4(c), hex8(d)].join('');
  }
}

/**
 * NAME_ALPHABET is the alphabet of generated names: consonants and digits that
 * cannot spell words. See staging/src/k8s.io/apimachinery/pkg/util/rand/rand.go (alphanums).
 */
export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const HEX = '0123456789abcdef';

/** BYTE_HEX are the two hex digits of each byte. */
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => HEX[i >>> 4]! + HEX[i & 15]!);

function hex4(x: number): string {
  return BYTE_HEX[(x >>> 8) & 0xff]! + BYTE_HEX[x & 0xff]!;
}

function hex8(x: number): string {
  return hex4(x >>> 16) + hex4(x);
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
