// Reading an input file for every front (CLI, debug adapter, language server, commands): only a regular file, and
// never more than the loader's limit. A FIFO, a device (/dev/zero, /dev/urandom) or a socket would block the read or
// fill memory without end; the size is checked before anything is read.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { MAX_FILE_BYTES } from '../engine/cluster/loader';

/** NotRegularFileError says what a path is, when it is not a regular file. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
}

/** kindOf names what a non-regular file is. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * readInputFile reads a regular file of at most `limit` bytes as UTF-8. The open does not wait for a FIFO's writer;
 * a directory fails as EISDIR, anything else that is not a regular file as NotRegularFileError, an oversized file
 * before it is read.
 */
export function readInputFile(path: string, limit = MAX_FILE_BYTES): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' });
    if (!stats.isFile()) throw new NotRegularFileError(`it is ${kindOf(stats)}, not a regular file`);
    if (stats.size > limit) throw new NotRegularFileError(`file is too large (${stats.size} bytes; the limit is ${limit} bytes)`);
    // The file may grow while it is read: read at most one byte over the limit to tell.
    const buffer = Buffer.alloc(Math.min(stats.size, limit) + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > limit) throw new NotRegularFileError(`file is too large (over ${limit} bytes)`);
      if (length === buffer.length) break;
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}
