import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The directory of Mailroom's package.json: the checkout, or /app in the Docker image. */
export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}
