import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentTypeOfKey } from '../upload-key';
import type { ImageStorage } from './image-storage';

/** Files under a directory of `$DATA_DIR` (`uploads`, `inbound`), written to a temporary name and renamed, so a reader never sees half a file. */
export class LocalImageStorage implements ImageStorage {
  readonly kind = 'local' as const;

  constructor(private readonly dir: string) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temporary = join(this.dir, `.${key}.tmp`);
    await writeFile(temporary, bytes);
    await rename(temporary, join(this.dir, key));
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    try {
      return { bytes: await readFile(join(this.dir, key)), contentType: contentTypeOfKey(key) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(join(this.dir, key), { force: true });
  }
}
